#!/usr/bin/env python3
"""An `i` worker with one tool, `word_count`, using only the standard library.

The protocol (NDJSON over stdin/stdout): each request is one line of UTF-8
JSON, e.g.

    {"id": 1, "event": "tool", "workspace": "/project",
     "data": {"name": "word_count", "arguments": {"text": "hello world"}}}

and each gets exactly one response line with the same id:

    {"id": 1, "data": {"output": "2 words, 1 line, 11 characters"}}
    {"id": 1, "error": "what went wrong"}

stdout carries frames only (diagnostics go to stderr), every frame is
flushed, and a frame is at most 48 MiB including its newline.
"""
import json
import sys

MAX_FRAME_BYTES = 48 * 1024 * 1024


def word_count(arguments):
    if not isinstance(arguments, dict) or not isinstance(arguments.get("text"), str):
        raise ValueError('word_count needs the argument "text" (a string)')
    text = arguments["text"]
    words = len(text.split())
    # Lines as a person counts them: a last line without a newline still counts.
    lines = text.count("\n") + (1 if text and not text.endswith("\n") else 0)
    return {"output": f"{words} {plural(words, 'word')}, {lines} {plural(lines, 'line')}, {len(text)} {plural(len(text), 'character')}"}


def plural(count, noun):
    return noun if count == 1 else noun + "s"


TOOLS = {"word_count": word_count}


def handle(request):
    event = request.get("event")
    data = request.get("data")
    if not isinstance(data, dict):
        raise ValueError('"data" must be an object')
    if event != "tool":
        # Hooks return the full data; an event this worker does not handle passes through.
        return data
    tool = TOOLS.get(data.get("name"))
    if tool is None:
        raise ValueError(f'unknown tool {json.dumps(data.get("name"))}; this worker provides: {", ".join(TOOLS)}')
    return tool(data.get("arguments"))


def write_frame(response):
    frame = (json.dumps(response, ensure_ascii=False) + "\n").encode("utf-8")
    if len(frame) > MAX_FRAME_BYTES:
        frame = (json.dumps({"id": response["id"], "error": "the response is over the 48 MiB frame limit"}) + "\n").encode("utf-8")
    sys.stdout.buffer.write(frame)
    sys.stdout.buffer.flush()


def fail(message):
    """A frame without a usable id cannot be answered: say why on stderr and stop."""
    print(f"word_count: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    while True:
        # readline on the binary stream splits on b"\n" only, as the protocol requires.
        line = sys.stdin.buffer.readline(MAX_FRAME_BYTES + 1)
        if not line:
            return
        if len(line) > MAX_FRAME_BYTES:
            fail("a request frame is over the 48 MiB limit")
        if not line.endswith(b"\n"):
            fail("stdin ended inside a frame")
        try:
            request = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            fail(f"a request frame is not valid UTF-8 JSON ({error})")
        request_id = request.get("id") if isinstance(request, dict) else None
        if not isinstance(request_id, int) or isinstance(request_id, bool) or request_id < 0:
            fail('a request frame has no unsigned integer "id"')
        try:
            response = {"id": request_id, "data": handle(request)}
        except Exception as error:  # Any failure of one request is that request's error frame.
            response = {"id": request_id, "error": str(error)}
        write_frame(response)


if __name__ == "__main__":
    main()
