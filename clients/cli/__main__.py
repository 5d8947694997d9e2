import sys

from clients.cli.main import main

sys.exit(main())
