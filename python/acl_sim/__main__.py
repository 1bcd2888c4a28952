import sys

from acl_sim.cli import main

sys.exit(main())
