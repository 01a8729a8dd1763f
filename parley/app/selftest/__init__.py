"""``parley --self-test``: one real run of the window and both engines, and its JSON report."""
