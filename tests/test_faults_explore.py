"""``carromlab explore``'s host and port: each bad one is one line naming it, before any server
starts; an IPv6 address is served in brackets."""

import socket
import subprocess

import pytest
from cli_run import run

from carromlab.errors import CarromlabError
from carromlab.explore import serve


@pytest.fixture
def no_server(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the page server was started")

    monkeypatch.setattr(subprocess, "Popen", refuse)


@pytest.mark.parametrize(
    ("host", "words"),
    [
        ("999.1.1.1", "error: --host '999.1.1.1': cannot resolve it"),
        ("no.such.host.invalid", "error: --host 'no.such.host.invalid': cannot resolve it"),
        ("", "error: --host '': give an address to bind"),
        (" ", "error: --host ' ': give an address to bind"),
        ("192.0.2.1", "error: --host '192.0.2.1': cannot bind to it"),
    ],
)
@pytest.mark.parametrize("port", [[], ["--port", "9123"]])
def test_a_host_that_cannot_be_served_is_one_line(capsys, no_server, host, words, port):
    code, out, err = run(capsys, "explore", "--no-browser", "--host", host, *port)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(words), err


def test_no_free_port_is_one_line_naming_the_range():
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        port = held.getsockname()[1]
        with pytest.raises(CarromlabError, match=f"no free port in {port}-{port} on 127.0.0.1"):
            serve.free_port("127.0.0.1", port, tries=1)


def test_an_ipv6_address_binds_and_is_written_in_brackets():
    if not socket.has_ipv6:
        pytest.skip("no IPv6 here")
    try:
        serve.bind_address("::1")
    except CarromlabError as e:  # a machine without IPv6 loopback: one line naming it
        assert str(e).startswith("--host '::1': cannot bind to it")
    else:
        assert serve.free_port("::1") > 0
    assert serve.url("::1", 8866) == "http://[::1]:8866/"
    assert serve.url("127.0.0.1", 8866) == "http://127.0.0.1:8866/"
