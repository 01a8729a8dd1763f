"""Every bound on what a client may send, checked before anything reaches native code."""

from __future__ import annotations

MAX_JSON_BODY = 4 << 20  # bytes of a JSON request: far more text than any context holds
MAX_UPLOAD_BODY = 25 << 20  # bytes of a multipart upload, as OpenAI's transcription API allows
MAX_AUDIO_SECONDS = 30 * 60.0  # longest audio transcribed (parley transcribe's own limit)
MAX_MESSAGES = 1024  # messages in one chat request
MAX_STOP = 4  # stop strings, as OpenAI allows
MAX_STOP_CHARS = 256  # characters in one stop string
MAX_NAME_CHARS = 256  # a model name, a language, a response format
MAX_PROMPT_CHARS = 4096  # a transcription's prompt (whisper reads at most 224 tokens of it)
MAX_FORM_FIELDS = 32  # fields of a multipart form besides the file
MAX_FIELD_BYTES = 64 << 10  # bytes of one multipart field that is not the file
MAX_SPEECH_WAITING = 8  # transcriptions waiting for the speech model beyond the one running
MAX_SPEECH_INPUT_CHARS = 4096  # text to speak in one request, as OpenAI allows
MAX_VOICE_WAITING = 8  # voice requests waiting beyond the one running
MAX_TOP_LOGPROBS = 20  # alternatives per token with log-probabilities, as OpenAI allows
MAX_COMPLETION_LOGPROBS = 5  # alternatives per token on the legacy completions API, as OpenAI allows
MAX_EMBEDDING_INPUTS = 2048  # texts in one embeddings request, as OpenAI allows
MAX_EMBEDDING_WAITING = 8  # embeddings requests waiting beyond the one running
MAX_TOOLS = 128  # functions in one request, as OpenAI allows
MAX_TOOLS_BYTES = 256 << 10  # their JSON in all: far more than a context holds
