"""Drive a real Jupyter kernel for BenchmarkJupyterRoundTrip.

Prints "ready" once the kernel runs, then for every line on stdin executes
the line's cell (as JSON) and prints "ok" after the shell reply and the
kernel's return to idle, which is when a notebook client considers the cell
done.
"""

import json
import sys

from jupyter_client.manager import start_new_kernel


def run(kc, code):
    msg_id = kc.execute(code)
    while True:
        reply = kc.get_shell_msg(timeout=60)
        if reply["parent_header"].get("msg_id") == msg_id:
            break
    while True:
        msg = kc.get_iopub_msg(timeout=60)
        if (msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "status"
                and msg["content"]["execution_state"] == "idle"):
            return reply["content"]["status"]


def main():
    km, kc = start_new_kernel(kernel_name="python3")
    try:
        print("ready", flush=True)
        for line in sys.stdin:
            status = run(kc, json.loads(line))
            print("ok" if status == "ok" else "error " + status, flush=True)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


if __name__ == "__main__":
    main()
