"""What tests share: fake servers, tiny models, the virtual microphone, X11 and privilege helpers.

No tests here; test modules import these, never each other."""
