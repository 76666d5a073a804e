"""Plays Home Assistant's side of the Wyoming protocol against `susi satellite serve`.

Run with the pinned `wyoming` package (scripts/wyoming-venv.sh, `make deps`):

    .build/wyoming/bin/python scripts/wyoming-satellite-check.py --port PORT --answer WAV

First it sends malformed input on connections of their own (a header that is not JSON, a
payload length of a terabyte, a header that is not an object, an unknown event type) and
checks that the satellite closes those connections, or ignores the unknown event, and still
answers. Then, as Home Assistant does, it asks `describe`, pings, sends `run-satellite` and
reads what the satellite streams after it hears its wake word (`detection`, `run-pipeline`,
`audio-start`, `audio-chunk`s, `audio-stop`; `--record` writes the command's audio to a WAV
file), sends the answer WAV back as `audio-start`/`audio-chunk`/`audio-stop` (converted by the
package to `--answer-format`) and waits for `played`. Last, it checks that a newer connection
sending `run-satellite` takes over (the older one is closed) and that a ninth connection is
refused. Prints one JSON object with what it saw; the test
(Tests/susiTests/SatelliteCommandTests.swift) judges it. Exit status 1 when the satellite did
not answer in time.
"""

import argparse
import asyncio
import json
import sys
import time
import wave

from wyoming.audio import AudioChunk, AudioChunkConverter, AudioStart, AudioStop, wav_to_chunks
from wyoming.client import AsyncTcpClient
from wyoming.event import async_read_event, async_write_event
from wyoming.info import Describe, Info
from wyoming.ping import Ping, Pong
from wyoming.pipeline import RunPipeline
from wyoming.satellite import PauseSatellite, RunSatellite
from wyoming.snd import Played
from wyoming.wake import Detection


async def closed_after(host: str, port: int, garbage: bytes, timeout: float) -> bool:
    """Whether the satellite closes a connection that sent `garbage`."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(garbage)
        await writer.drain()
        return await asyncio.wait_for(reader.read(1), timeout) == b""
    except ConnectionResetError:
        # Closed with our bytes unread: a reset rather than an orderly end, closed all the same.
        return True
    except (ConnectionError, asyncio.TimeoutError):
        return False
    finally:
        writer.close()


async def describe(client: AsyncTcpClient, timeout: float) -> Info:
    """Sends `describe` and returns the `info` that answers it."""
    await client.write_event(Describe().event())
    while True:
        event = await asyncio.wait_for(client.read_event(), timeout)
        if event is None:
            raise ConnectionError("the satellite closed the connection")
        if Info.is_type(event.type):
            return Info.from_event(event)


async def malformed(host: str, port: int, timeout: float) -> dict:
    """What the satellite does with malformed and unknown events."""
    result = {
        "bad_json_closed": await closed_after(host, port, b"{not json\n", timeout),
        "huge_payload_closed": await closed_after(
            host, port, b'{"type": "audio-chunk", "payload_length": 1000000000000}\n', timeout
        ),
        "non_object_closed": await closed_after(host, port, b"[1, 2, 3]\n", timeout),
    }
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(b'{"type": "no-such-event", "data": {"x": 1}}\n')
        await async_write_event(Describe().event(), writer)
        event = await asyncio.wait_for(async_read_event(reader), timeout)
        result["unknown_ignored"] = event is not None and Info.is_type(event.type)
    finally:
        writer.close()
    return result


async def session(
    host: str, port: int, answer: str, answer_format: tuple[int, int], timeout: float, record: str | None
) -> dict:
    """Home Assistant's part: describe, ping, run the satellite, hear a command, answer it."""
    result: dict = {"events": []}
    client = AsyncTcpClient(host, port)
    await client.connect()
    try:
        info = await describe(client, timeout)
        satellite = info.satellite
        result["info"] = {
            "satellite": satellite.to_dict() if satellite else None,
            "wake": [model.phrase for program in info.wake for model in program.models],
            "mic": [program.mic_format.to_dict() for program in info.mic],
            "snd": [program.snd_format.to_dict() for program in info.snd],
        }
        await client.write_event(Ping(text="hello").event())
        pong = await asyncio.wait_for(client.read_event(), timeout)
        result["pong"] = Pong.from_event(pong).text if pong and Pong.is_type(pong.type) else None

        await client.write_event(RunSatellite().event())
        streamed = bytearray()
        formats = set()
        while True:
            event = await asyncio.wait_for(client.read_event(), timeout)
            if event is None:
                raise ConnectionError("the satellite closed the connection while streaming")
            if not result["events"] or result["events"][-1] != event.type:
                result["events"].append(event.type)
            if Detection.is_type(event.type):
                result["detection"] = Detection.from_event(event).name
            elif RunPipeline.is_type(event.type):
                pipeline = RunPipeline.from_event(event)
                result["run_pipeline"] = {
                    "start_stage": pipeline.start_stage.value,
                    "end_stage": pipeline.end_stage.value,
                }
            elif AudioStart.is_type(event.type):
                start = AudioStart.from_event(event)
                result["audio_start"] = {"rate": start.rate, "width": start.width, "channels": start.channels}
            elif AudioChunk.is_type(event.type):
                chunk = AudioChunk.from_event(event)
                streamed += chunk.audio
                formats.add((chunk.rate, chunk.width, chunk.channels))
            elif AudioStop.is_type(event.type):
                break
        result["chunk_bytes"] = len(streamed)
        result["chunk_formats"] = sorted(formats)
        if record and len(formats) == 1:
            rate, width, channels = next(iter(formats))
            with wave.open(record, "wb") as wav:
                wav.setframerate(rate)
                wav.setsampwidth(width)
                wav.setnchannels(channels)
                wav.writeframes(bytes(streamed))

        with wave.open(answer, "rb") as wav:
            result["answer_frames"] = wav.getnframes()
            result["answer_rate"] = wav.getframerate()
            # Sent in another format than the satellite plays, when asked, as a TTS may.
            converter = AudioChunkConverter(rate=answer_format[0], width=2, channels=answer_format[1])
            for event in wav_to_chunks(wav, samples_per_chunk=1024, start_event=True, stop_event=True):
                if isinstance(event, AudioChunk):
                    event = converter.convert(event)
                elif isinstance(event, AudioStart):
                    event = AudioStart(rate=answer_format[0], width=2, channels=answer_format[1])
                await client.write_event(event.event())
        sent = time.monotonic()
        while True:
            event = await asyncio.wait_for(client.read_event(), timeout)
            if event is None:
                raise ConnectionError("the satellite closed the connection before `played`")
            if Played.is_type(event.type):
                result["played_after_s"] = round(time.monotonic() - sent, 3)
                break
    finally:
        await client.disconnect()
    return result


async def connections(host: str, port: int, timeout: float) -> dict:
    """Who runs the satellite, and how many connections it holds."""
    result = {}
    first = AsyncTcpClient(host, port)
    second = AsyncTcpClient(host, port)
    await first.connect()
    await second.connect()
    try:
        await first.write_event(RunSatellite().event())
        await describe(first, timeout)
        await second.write_event(RunSatellite().event())
        # The newer Home Assistant takes over; the older connection is closed.
        ended = False
        while not ended:
            event = await asyncio.wait_for(first.read_event(), timeout)
            ended = event is None
        result["taken_over"] = ended
        await second.write_event(PauseSatellite().event())
        result["controller_answers"] = (await describe(second, timeout)).satellite is not None
    finally:
        await first.disconnect()
        await second.disconnect()

    held = []
    try:
        for _ in range(8):
            held.append(await asyncio.open_connection(host, port))
        # A busy satellite may not have accepted all eight yet (the kernel queues them), and a
        # ninth taken before they are counted holds a slot: try again for up to 10 s.
        refused = False
        for _ in range(10):
            await asyncio.sleep(0.5)
            refused = await closed_after(host, port, b"", min(timeout, 0.5))
            if refused:
                break
        result["ninth_refused"] = refused
    finally:
        for _, writer in held:
            writer.close()
    await asyncio.sleep(0.5)
    client = AsyncTcpClient(host, port)
    await client.connect()
    try:
        result["answers_after"] = (await describe(client, timeout)).satellite is not None
    finally:
        await client.disconnect()
    return result


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--answer", required=True, help="WAV file (16-bit PCM) sent back as the spoken answer")
    parser.add_argument("--timeout", type=float, default=60, help="seconds to wait for each event")
    parser.add_argument("--record", help="WAV file to write the streamed command into")
    parser.add_argument(
        "--answer-format", default="22050,1", help="RATE,CHANNELS the answer is sent in (converted from the WAV)"
    )
    args = parser.parse_args()
    report: dict = {}
    try:
        report["malformed"] = await malformed(args.host, args.port, 5)
        rate, channels = (int(part) for part in args.answer_format.split(","))
        report.update(await session(args.host, args.port, args.answer, (rate, channels), args.timeout, args.record))
        report["connections"] = await connections(args.host, args.port, 10)
    except (ConnectionError, asyncio.TimeoutError, OSError) as error:
        report["failure"] = f"{type(error).__name__}: {error}"
        print(json.dumps(report))
        return 1
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
