/**
 * The Python side of the scoring sandbox: a fork server ("zygote") that Node starts once per
 * scoring worker, inside the OS isolation of its {@link SandboxMode}. It reads one JSON request
 * per line, forks a fresh child per check (own session and process group, privileges dropped,
 * rlimits set, fresh working dir) and answers one JSON line. Forking a warm interpreter costs
 * ~5-20 ms where starting python3 costs ~110 ms here: that is what lets the tests run thousands
 * of checks on two cores. See SANDBOX.md.
 *
 * Kept as a string (not a .py file beside this one) so a compiled build needs no asset copy.
 * It must not contain a backtick or a dollar-brace.
 */
export const sandboxZygoteSource = String.raw`# Perch scoring sandbox: a fork server. Node starts one per scoring worker; it reads one JSON
# request per line on stdin, forks a fresh child per check and answers one JSON line on stdout.
import io
import json
import os
import re
import resource
import select
import shutil
import signal
import sys
import time
import traceback

CONFIG = json.loads(sys.argv[1])
MODE = CONFIG["mode"]
SCRATCH = CONFIG["scratch"]
RUN_UID = CONFIG.get("uid")
# RLIMIT_NPROC counts every process of the uid: only meaningful for a uid or user namespace of
# the sandbox's own, not for the user's own account (plain and darwin modes).
COUNT_PROCESSES = MODE.startswith("linux-") or RUN_UID is not None
# Only the init of a fresh pid namespace may use kill(-1): anywhere else it would hit the host.
NAMESPACE_INIT = MODE.startswith("linux-") and os.getpid() == 1

# Signals without a handler cannot reach a pid-namespace init from inside the namespace, so
# Python's SIGINT handler is removed: a candidate cannot interrupt the zygote.
signal.signal(signal.SIGINT, signal.SIG_DFL)

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT = 1, 2, 4, 8, 32
MS_NOATIME, MS_NODIRATIME, MS_BIND, MS_REC = 1024, 2048, 4096, 16384
MS_RELATIME, MS_STRICTATIME = 1 << 21, 1 << 24
# Remounting a bind mount read-only must keep the flags the kernel locked on it.
KEPT_FLAGS = {
    "nosuid": MS_NOSUID,
    "nodev": MS_NODEV,
    "noexec": MS_NOEXEC,
    "noatime": MS_NOATIME,
    "nodiratime": MS_NODIRATIME,
    "relatime": MS_RELATIME,
    "strictatime": MS_STRICTATIME,
}
CLONE_NEWUSER = 0x10000000
PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS = 4, 38


def load_libc():
    import ctypes

    lib = ctypes.CDLL(None, use_errno=True)
    lib.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_void_p]
    return ctypes, lib


def check(ctypes, result, what):
    if result != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code), what)


def unescape_mount_path(raw):
    return re.sub(rb"\\([0-7]{3})", lambda m: bytes([int(m.group(1), 8)]), raw).decode("utf-8", "surrogateescape")


def make_filesystem_read_only():
    """Every mount read-only except the scratch dir (bound onto itself first so it stays writable)."""
    ctypes, lib = load_libc()
    scratch = SCRATCH.encode()
    check(ctypes, lib.mount(scratch, scratch, None, MS_BIND | MS_REC, None), "bind " + SCRATCH)
    with open("/proc/self/mountinfo", "rb") as handle:
        mounts = [line.split() for line in handle]
    for fields in mounts:
        target = unescape_mount_path(fields[4])
        if target == SCRATCH or target == "/proc" or target.startswith("/proc/"):
            continue
        flags = MS_REMOUNT | MS_BIND | MS_RDONLY
        for option in fields[5].decode().split(","):
            flags |= KEPT_FLAGS.get(option, 0)
        result = lib.mount(None, target.encode("utf-8", "surrogateescape"), None, flags, None)
        if result != 0 and target == "/":
            check(ctypes, result, "remount / read-only")
    libc_prctl = lib.prctl
    # Children are forked from here: a non-dumpable zygote cannot be ptraced by them.
    libc_prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    return ctypes, lib


LIBC = make_filesystem_read_only() if MODE.startswith("linux-") else None


def write_file(path, text):
    with open(path, "w") as handle:
        handle.write(text)


def drop_privileges():
    if MODE == "linux-user":
        ctypes, lib = LIBC
        # A nested user namespace: the child loses every capability over the zygote's mount,
        # pid and network namespaces, so it cannot remount the filesystem writable.
        lib.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)
        check(ctypes, lib.unshare(CLONE_NEWUSER), "unshare user namespace")
        write_file("/proc/self/setgroups", "deny")
        write_file("/proc/self/uid_map", "0 0 1")
        write_file("/proc/self/gid_map", "0 0 1")
    elif RUN_UID is not None:
        os.setgroups([])
        os.setgid(RUN_UID)
        os.setuid(RUN_UID)
    if LIBC is not None:
        LIBC[1].prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)


def set_limit(kind, value):
    if value is None:
        return
    try:
        resource.setrlimit(kind, (value, value))
    except (ValueError, OSError):
        pass


def apply_limits(request):
    cpu = max(1, int(request["cpu_s"] + 0.999))
    try:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    except (ValueError, OSError):
        pass
    set_limit(resource.RLIMIT_AS, request.get("memory_bytes"))
    set_limit(resource.RLIMIT_FSIZE, request.get("file_size_bytes"))
    set_limit(resource.RLIMIT_CORE, 0)
    set_limit(resource.RLIMIT_NOFILE, 256)
    if COUNT_PROCESSES:
        set_limit(resource.RLIMIT_NPROC, request.get("processes"))


def text_stream(fd, mode, line_buffering=False):
    raw = io.FileIO(fd, mode, closefd=False)
    buffered = io.BufferedReader(raw) if mode == "r" else io.BufferedWriter(raw)
    return io.TextIOWrapper(buffered, encoding="utf-8", errors="backslashreplace", line_buffering=line_buffering)


def child_main(request, workdir, stdin_fd, out_w, err_w, status_w):
    os.setsid()
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    os.dup2(stdin_fd, 0)
    os.dup2(out_w, 1)
    os.dup2(err_w, 2)
    os.dup2(status_w, 3)
    global ARRANGED
    ARRANGED = True
    os.closerange(4, 65536)
    drop_privileges()
    os.chdir(workdir)
    os.environ.clear()
    os.environ.update(request["env"])
    os.environ["HOME"] = os.environ["TMPDIR"] = workdir
    apply_limits(request)
    sys.stdin = sys.__stdin__ = text_stream(0, "r")
    sys.stdout = sys.__stdout__ = text_stream(1, "w")
    sys.stderr = sys.__stderr__ = text_stream(2, "w", line_buffering=True)
    sys.argv = ["solution.py"]
    status = run_candidate(request["code"])
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            pass
    status["pid"] = os.getpid()
    try:
        os.write(3, json.dumps(status).encode())
    except BaseException:
        pass


def run_candidate(source):
    try:
        code = compile(source, "solution.py", "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as error:
        traceback.print_exception(type(error), error, None, file=sys.stderr)
        return {"kind": "syntax_error", "type": type(error).__name__, "message": str(error)[:2000]}
    scope = {"__name__": "__main__", "__file__": "solution.py", "__builtins__": __builtins__}
    try:
        exec(code, scope)
        return {"kind": "completed"}
    except SystemExit as error:
        code = error.code
        return {"kind": "exit", "code": code if isinstance(code, int) or code is None else 1}
    except BaseException as error:
        try:
            # Skip this frame: the traceback starts at the candidate's own code.
            traceback.print_exception(type(error), error, error.__traceback__.tb_next)
            message = str(error)[:2000]
        except BaseException:
            message = ""
        return {"kind": "exception", "type": type(error).__name__, "message": message}


def kill_check(pid):
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
    if NAMESPACE_INIT:
        # Everything left in the namespace, including processes that left the process group.
        try:
            os.kill(-1, signal.SIGKILL)
        except OSError:
            pass


def reap_orphans():
    # Only a namespace init adopts orphans; elsewhere this returns at once.
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return
        except InterruptedError:
            continue


def open_stdin(text):
    if text is None:
        return os.open(os.devnull, os.O_RDONLY)
    data = text.encode("utf-8")
    if hasattr(os, "memfd_create"):
        fd = os.memfd_create("stdin")
    else:
        path = os.path.join(SCRATCH, "stdin-%d" % os.getpid())
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
        os.unlink(path)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def remove_tree(path):
    for root, dirs, _files in os.walk(path):
        for name in dirs:
            try:
                os.chmod(os.path.join(root, name), 0o700)
            except OSError:
                pass
    shutil.rmtree(path, ignore_errors=True)


COUNTER = [0]
ARRANGED = False


def run_check(request):
    COUNTER[0] += 1
    workdir = os.path.join(SCRATCH, "w%d" % COUNTER[0])
    os.mkdir(workdir, 0o700)
    if RUN_UID is not None:
        os.chown(workdir, RUN_UID, RUN_UID)
    stdin_fd = open_stdin(request.get("stdin"))
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    status_r, status_w = os.pipe()
    sys.stdout.flush()
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            child_main(request, workdir, stdin_fd, out_w, err_w, status_w)
        except BaseException as error:
            try:
                failure = {"kind": "sandbox_error", "message": repr(error)[:500], "pid": os.getpid()}
                # The status pipe is fd 3 once child_main has rearranged the descriptors.
                os.write(3 if ARRANGED else status_w, json.dumps(failure).encode())
            except BaseException:
                pass
            os._exit(70)
        os._exit(0)
    for fd in (stdin_fd, out_w, err_w, status_w):
        os.close(fd)
    result = supervise(request, pid, started, out_r, err_r, status_r)
    remove_tree(workdir)
    return result


def supervise(request, pid, started, out_r, err_r, status_r):
    limit = request["output_limit_bytes"]
    buffers = {out_r: bytearray(), err_r: bytearray(), status_r: bytearray()}
    caps = {out_r: limit, err_r: limit, status_r: 1 << 16}
    open_fds = set(buffers)
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        pidfd = None
    deadline = started + request["timeout_s"]
    exit_status = None
    rusage = None
    timed_out = False
    overflow = False
    drain_until = None
    while open_fds:
        now = time.monotonic()
        if exit_status is None and now >= deadline:
            timed_out = True
            kill_check(pid)
        if drain_until is not None and now >= drain_until:
            break
        if exit_status is None:
            wait = max(0.0, deadline - now)
            if pidfd is None:
                wait = min(wait, 0.005)
        else:
            wait = max(0.0, drain_until - now)
        watched = list(open_fds) + ([pidfd] if pidfd is not None and exit_status is None else [])
        try:
            ready, _, _ = select.select(watched, [], [], wait)
        except InterruptedError:
            ready = []
        for fd in ready:
            if fd == pidfd:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                open_fds.discard(fd)
                continue
            room = caps[fd] - len(buffers[fd])
            buffers[fd] += chunk[: max(0, room)]
            if len(chunk) > room and fd != status_r and not overflow:
                overflow = True
                kill_check(pid)
        if exit_status is None:
            done, status, usage = os.wait4(pid, os.WNOHANG)
            if done:
                exit_status, rusage = status, usage
                kill_check(pid)
                # Writers are dead or killed now; a plain (no namespace) run may leave an
                # escaped grandchild holding a pipe, so draining is bounded.
                drain_until = time.monotonic() + 0.5
    if exit_status is None:
        kill_check(pid)
        _, exit_status, rusage = os.wait4(pid, 0)
    duration = time.monotonic() - started
    for fd in list(buffers):
        os.close(fd)
    if pidfd is not None:
        os.close(pidfd)
    reap_orphans()
    status = read_status(bytes(buffers[status_r]).decode("utf-8", "replace"), pid)
    return {
        "status": status,
        "exit_code": os.WEXITSTATUS(exit_status) if os.WIFEXITED(exit_status) else None,
        "signal": os.WTERMSIG(exit_status) if os.WIFSIGNALED(exit_status) else None,
        "timed_out": timed_out,
        "output_exceeded": overflow,
        "stdout": bytes(buffers[out_r]).decode("utf-8", "replace"),
        "stderr": bytes(buffers[err_r]).decode("utf-8", "replace"),
        "duration_s": round(duration, 4),
        "cpu_s": round(rusage.ru_utime + rusage.ru_stime, 4) if rusage else None,
    }


def read_status(text, pid):
    """The status written by the check's own process; forked copies may have written theirs too."""
    decoder = json.JSONDecoder()
    index = 0
    while index < len(text):
        try:
            value, index = decoder.raw_decode(text, index)
        except ValueError:
            return None
        if isinstance(value, dict) and value.get("pid") == pid:
            return value
    return None


def main():
    ready = {"ready": True, "mode": MODE, "namespace_init": NAMESPACE_INIT, "python": sys.version.split()[0]}
    sys.stdout.write(json.dumps(ready) + "\n")
    sys.stdout.flush()
    for line in sys.stdin.buffer:
        request = json.loads(line)
        try:
            result = run_check(request)
        except Exception as error:
            result = {"sandbox_error": repr(error)[:500]}
        result["id"] = request.get("id")
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()


main()
`;
