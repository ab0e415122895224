from carromlab.cli import main

main()
