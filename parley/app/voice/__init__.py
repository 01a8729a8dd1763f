"""Voice in and out: push-to-talk, hands-free, transcription jobs, microphones, reading aloud.

Imports the engine, app/tasks and app/signals; never a window."""
