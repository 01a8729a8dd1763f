"""The user-visible flows: each is one object that reads top to bottom, a method per step, in the
order the user lives them.

- ``spoken_turn.SpokenTurn``: hold the talk key in the window, speak, let go; the words are sent;
- ``dictation.Dictation``: dictate into another app with a shortcut from anywhere;
- ``quick_question.QuickQuestion``: ask Parley from anywhere, answered in the quick-ask window;
- ``hands_free_turn.HandsFreeTurn``: the microphone kept open, each utterance sent at a pause
  (and taken back, to be sent with what follows, when the user goes on);
- ``waking.Waking``: hands-free with a wake word: only what begins with it is taken, and a
  conversation goes on without it for a few seconds after each reply;
- ``barge_in.BargeIn``: talking over Parley while it reads a reply aloud;
- ``streaming_reply.StreamingReply``: a reply as the window shows it, timed first.

A step that must wait (a transcription, a reply) hands its work to the part that runs it on an
engine's thread, the one background path (``app/tasks.py``), with the flow's next step as the
continuation, which runs on the UI thread.  Signals only at the edges: the window, the keys, the
microphone's listener and the reply say what happened by calling a step (the controller connects
them), and a flow tells the window what to show by calling it.  A flow holds its own state, typed.

Runs on the UI thread only: starts no thread of its own.  Uses the app's parts (speech, voice,
conversations, ui, desktop typing); never the controller or the engine host, which build and
connect the flows (``tests/test_layout.py`` checks both).
"""
