# Perch scoring sandbox: a fork server ("zygote"). Node (SandboxProcess.ts) starts one per scoring
# worker, inside the OS isolation of its sandbox mode, as `python3 -I -c <this file's text> <config
# JSON>`. It reads one JSON request per line on stdin, forks a fresh child per check (own session
# and process group, privileges dropped, rlimits set, fresh working dir) and answers one JSON line
# on stdout. Forking a warm interpreter costs ~5-20 ms where starting python3 costs ~110 ms: that
# is what lets the tests run thousands of checks on two cores. See SANDBOX.md.
#
# Importing this file (tests/python/) only defines the helpers: main() runs when it is the program.
import io
import json
import os
import re
import resource
import select
import shutil
import signal
import stat
import sys
import time
import traceback

# The configuration Node passes as the first argument, set by configure() before any check runs.
MODE = "plain"
SCRATCH = None
RUN_UID = None
# RLIMIT_NPROC counts every process of the uid: only meaningful for a uid or user namespace of
# the sandbox's own, not for the user's own account (plain and darwin modes).
COUNT_PROCESSES = False
# Only the init of a fresh pid namespace may use kill(-1): anywhere else it would hit the host.
NAMESPACE_INIT = False


def configure(config):
    global MODE, SCRATCH, RUN_UID, COUNT_PROCESSES, NAMESPACE_INIT
    MODE = config["mode"]
    SCRATCH = config["scratch"]
    RUN_UID = config.get("uid")
    COUNT_PROCESSES = MODE.startswith("linux-") or RUN_UID is not None
    NAMESPACE_INIT = MODE.startswith("linux-") and os.getpid() == 1


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
CLONE_NEWUSER, CLONE_NEWIPC = 0x10000000, 0x08000000
MNT_DETACH = 2
PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS = 4, 38
# The scratch dir itself (outside the checks' own dirs) is a small tmpfs in the linux modes: what a
# check manages to write there is bounded and dies with the namespace.
SCRATCH_TMPFS = "size=1m,nr_inodes=4096,mode=0711"
# Files a check's own dir may hold (a tmpfs inode limit; counted by the watcher elsewhere).
CHECK_FILES = 10000
# Each check's own /dev/shm in the linux modes (every host mount is read-only): POSIX semaphores and
# shared memory live there, so multiprocessing.Pool and ProcessPoolExecutor work. Small, and
# unmounted with the check, so nothing in it outlives the check or reaches the host's /dev/shm.
SHM_DIR = "/dev/shm"
SHM_TMPFS = "size=16m,nr_inodes=1024,mode=1777"


def load_libc():
    import ctypes

    lib = ctypes.CDLL(None, use_errno=True)
    lib.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_void_p]
    lib.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
    return ctypes, lib


def check(ctypes, result, what):
    if result != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code), what)


def unescape_mount_path(raw):
    return re.sub(rb"\\([0-7]{3})", lambda m: bytes([int(m.group(1), 8)]), raw).decode("utf-8", "surrogateescape")


def make_filesystem_read_only():
    """Every mount read-only except the scratch dir, which becomes a small tmpfs of this namespace."""
    ctypes, lib = load_libc()
    scratch = SCRATCH.encode()
    options = SCRATCH_TMPFS.encode()
    check(ctypes, lib.mount(b"perch-scratch", scratch, b"tmpfs", MS_NOSUID | MS_NODEV, options), "mount " + SCRATCH)
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


# (ctypes, libc) in the linux modes once main() has made the filesystem read-only; None elsewhere.
LIBC = None


def write_file(path, text):
    with open(path, "w") as handle:
        handle.write(text)


def enter_namespaces(handshake):
    """Linux modes: the check gets its own user namespace (the process limit counts per user
    namespace, so one check's processes do not use up another's) and its own IPC namespace (SysV
    shared memory and queues die with the check). It has no capability over the zygote's mount,
    pid and network namespaces, so it cannot remount the filesystem writable."""
    ready_w, go_r = handshake
    try:
        if LIBC is None:
            return
        ctypes, lib = LIBC
        if RUN_UID is None:
            # linux-user: the zygote is root of its own user namespace; the check maps itself.
            lib.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)
        check(ctypes, lib.unshare(CLONE_NEWUSER | CLONE_NEWIPC), "unshare user and IPC namespaces")
        if RUN_UID is None:
            write_file("/proc/self/setgroups", "deny")
            write_file("/proc/self/uid_map", "0 0 1")
            write_file("/proc/self/gid_map", "0 0 1")
            return
        # linux-root: root made the namespace (so no limit on unprivileged user namespaces
        # applies); mapping it to another uid takes CAP_SETUID outside it, so the zygote does.
        os.write(ready_w, b"u")
        if os.read(go_r, 1) != b"m":
            raise OSError("the zygote did not map the check's user namespace")
    finally:
        os.close(ready_w)
        os.close(go_r)


def map_user_namespace(pid, ready_r, go_w):
    """The zygote's side of enter_namespaces: root of the check's namespace becomes RUN_UID."""
    ready, _, _ = select.select([ready_r], [], [], 10)
    if not ready or os.read(ready_r, 1) != b"u":
        return
    try:
        for name in ("uid_map", "gid_map"):
            write_file("/proc/%d/%s" % (pid, name), "0 %d 1" % RUN_UID)
    except OSError:
        # The child reads end of file, fails its setup and reports a sandbox error.
        return
    os.write(go_w, b"m")


def drop_privileges():
    if LIBC is not None:
        if RUN_UID is not None:
            # Root of its own user namespace only: RUN_UID everywhere else.
            os.setgroups([])
            os.setresgid(0, 0, 0)
            os.setresuid(0, 0, 0)
        # No user namespaces below this one: a check cannot get capabilities over a mount
        # namespace of its own (to mount a tmpfs past its scratch quota, for one). Best effort:
        # a kernel without per-namespace limits still gets every other defence.
        try:
            write_file("/proc/sys/user/max_user_namespaces", "0")
        except OSError:
            pass
        LIBC[1].prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    elif RUN_UID is not None:
        os.setgroups([])
        os.setgid(RUN_UID)
        os.setuid(RUN_UID)


def set_limit(kind, value):
    if value is None:
        return
    try:
        resource.setrlimit(kind, (value, value))
    except (ValueError, OSError):
        pass


def cpu_limit(request):
    return max(1, int(request["cpu_s"] + 0.999))


def apply_limits(request):
    cpu = cpu_limit(request)
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


def child_main(request, workdir, stdin_fd, out_w, err_w, status_w, token, handshake):
    # Bound now: candidate code may rebind os.write or json.dumps before the status is written.
    write, dumps, getpid, exit_now = os.write, json.dumps, os.getpid, os._exit
    os.setsid()
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    enter_namespaces(handshake)
    os.dup2(stdin_fd, 0)
    os.dup2(out_w, 1)
    os.dup2(err_w, 2)
    os.dup2(status_w, 3)
    global ARRANGED
    ARRANGED = True
    os.closerange(4, 65536)
    drop_privileges()
    os.chdir(workdir)
    probe_workdir()
    os.environ.clear()
    os.environ.update(request["env"])
    os.environ["HOME"] = os.environ["TMPDIR"] = workdir
    apply_limits(request)
    sys.stdin = sys.__stdin__ = text_stream(0, "r")
    sys.stdout = sys.__stdout__ = text_stream(1, "w")
    sys.stderr = sys.__stderr__ = text_stream(2, "w", line_buffering=True)
    sys.argv = ["solution.py"]
    global CANDIDATE_STARTED
    CANDIDATE_STARTED = True
    scope = candidate_main_module().__dict__
    status = run_candidate(request["code"], request.get("tests"), request.get("test_names") or (), scope=scope)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            pass
    status["pid"] = getpid()
    # The token is what makes this status the harness's own: fd 3 is open to the candidate too,
    # but the candidate was never given the token (see SANDBOX.md for what in-process code can do).
    status["token"] = token
    try:
        write(3, ("\n" + dumps(status) + "\n").encode())
    except BaseException:
        pass
    exit_now(0)


def probe_workdir():
    """A check must start in a dir it can write; if not, the sandbox failed, not the candidate."""
    name = ".perch-probe"
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        os.write(fd, b"ok")
    finally:
        os.close(fd)
    os.unlink(name)


# What a benchmark's tests use from Python itself, as it was before any candidate ran: the tests
# run on these (run_candidate), so an answer that rebinds `abs`, `math.isclose` or `json.loads`
# for everyone does not change their verdict. Imported here, once, in the zygote.
GUARDED_MODULES = (
    "math", "cmath", "json", "re", "collections", "itertools", "functools", "operator", "string",
    "heapq", "bisect", "fractions", "decimal", "statistics", "random", "copy", "typing", "hashlib",
    # What the harness itself uses to read the tests (MBPP's tolerant asserts parse them).
    "ast",
)
PRISTINE = []


def remember_pristine():
    import builtins
    import importlib

    PRISTINE.append((builtins, dict(builtins.__dict__)))
    for name in GUARDED_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        PRISTINE.append((module, dict(module.__dict__)))


def restore_pristine(pristine=PRISTINE, modules=sys.modules, settrace=sys.settrace, setprofile=sys.setprofile):
    # Defaults bound at definition: a candidate that rebinds this module's globals (reachable by
    # introspection; `__main__` is the candidate's own module) does not reach them (SANDBOX.md).
    # A trace or profile hook left on would run the candidate's code inside the tests.
    settrace(None)
    setprofile(None)
    for module, names in pristine:
        modules[module.__name__] = module
        # What existed is put back; what the candidate added stays (its own helpers may use it,
        # and the tests use only what existed).
        module.__dict__.update(names)


def test_scope(scope, keep):
    """What the candidate defined, less the names that hide a builtin (`def abs(x): return 0`)
    unless the tests need them (`keep`): the tests see the real one; the candidate's own functions
    still see theirs."""
    import builtins

    hidden = builtins.__dict__
    tests = {
        name: value
        for name, value in scope.items()
        if name.startswith("__") or name in keep or name not in hidden or value is hidden[name]
    }
    tests["__builtins__"] = builtins
    return tests


def candidate_main_module(modules=sys.modules):
    """The candidate's namespace as the `__main__` module, as when Python runs a script: what
    pickle looks up by reference (`__main__.square`, a function handed to multiprocessing.Pool or
    ProcessPoolExecutor) is then found, in the check and in the workers it forks. Only in the
    check's process: the zygote's own `__main__` is left alone."""
    import types

    module = types.ModuleType("__main__")
    module.__dict__.update({"__file__": "solution.py", "__builtins__": __builtins__})
    modules["__main__"] = module
    return module


def run_candidate(source, tests=None, keep=(), restore=restore_pristine, scope_for_tests=test_scope, scope=None):
    try:
        code = compile(source, "solution.py", "exec", dont_inherit=True)
        checks = None if tests is None else compile(tests, "tests.py", "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as error:
        traceback.print_exception(type(error), error, None, file=sys.stderr)
        return {"kind": "syntax_error", "type": type(error).__name__, "message": str(error)[:1000]}
    if scope is None:
        scope = {"__name__": "__main__", "__file__": "solution.py", "__builtins__": __builtins__}
    try:
        exec(code, scope)
        if checks is not None:
            # The tests run on builtins and standard modules as they were before the candidate.
            restore()
            exec(checks, scope_for_tests(scope, keep))
        return {"kind": "completed"}
    except SystemExit as error:
        return {"kind": "exit", "code": exit_status(error.code)}
    except BaseException as error:
        try:
            # Skip this frame: the traceback starts at the candidate's own code.
            traceback.print_exception(type(error), error, error.__traceback__.tb_next)
            message = str(error)[:1000]
        except BaseException:
            message = ""
        return {"kind": "exception", "type": type(error).__name__, "message": message}


def exit_status(code):
    """SystemExit's code as a process would report it: None and False are 0, True is 1, an int
    outside 0..255 or anything else (a message) is 1, so the status always fits the protocol."""
    if code is None:
        return None
    if isinstance(code, bool):
        return int(code)
    if isinstance(code, int) and 0 <= code <= 255:
        return code
    return 1


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
    """Removes a check's dir. Never follows a symlink the check left there: cleanup may run with
    more privilege (root) than the check had. Never raises: a leftover is not the check's verdict."""
    try:
        if not stat.S_ISDIR(os.lstat(path).st_mode):
            os.unlink(path)
            return
        if os.geteuid() != 0:
            # Only needed without root's permission bypass: dirs the check made unwritable.
            unlock_tree(path, None, 0)
        shutil.rmtree(path, ignore_errors=True)
    except Exception:
        pass


def unlock_tree(name, parent_fd, depth):
    """Gives the owner rwx on a dir and the dirs below it, opening each with O_NOFOLLOW."""
    flags = os.O_DIRECTORY | os.O_NOFOLLOW
    try:
        if hasattr(os, "O_PATH"):
            # chmod through the fd's /proc link changes the dir itself, never a link's target.
            handle = os.open(name, flags | os.O_PATH, dir_fd=parent_fd)
            try:
                os.chmod("/proc/self/fd/%d" % handle, 0o700)
            finally:
                os.close(handle)
        elif os.chmod in os.supports_follow_symlinks:
            os.chmod(name, 0o700, dir_fd=parent_fd, follow_symlinks=False)
        fd = os.open(name, flags | os.O_RDONLY, dir_fd=parent_fd)
    except OSError:
        return
    try:
        if depth < 64:
            with os.scandir(fd) as entries:
                below = [entry.name for entry in entries if entry.is_dir(follow_symlinks=False)]
            for child in below:
                unlock_tree(child, fd, depth + 1)
    finally:
        os.close(fd)


def tree_usage(path, limit):
    """Bytes and entries under path, by lstat (no link followed); stops counting past limit entries."""
    used, count, stack = 0, 0, [path]
    while stack and count <= limit:
        try:
            with os.scandir(stack.pop()) as entries:
                for entry in entries:
                    count += 1
                    info = entry.stat(follow_symlinks=False)
                    used += getattr(info, "st_blocks", 0) * 512 or info.st_size
                    if stat.S_ISDIR(info.st_mode):
                        stack.append(entry.path)
        except OSError:
            continue
    return used, count


def mount_workdir(workdir, quota):
    """The linux modes bound a check's total writes with a tmpfs of its own; the host never sees it."""
    ctypes, lib = LIBC
    options = "size=%d,nr_inodes=%d,mode=0700" % (quota, CHECK_FILES)
    flags = MS_NOSUID | MS_NODEV
    check(ctypes, lib.mount(b"perch-check", workdir.encode(), b"tmpfs", flags, options.encode()), "mount workdir")


def mount_shm():
    """A fresh writable tmpfs on /dev/shm for one check. Best effort (False where there is no
    /dev/shm dir or the mount is refused): without it the check still runs with every other
    defence, only multiprocessing fails as before, where failing the mode would fall back to one
    with less isolation."""
    if not os.path.isdir(SHM_DIR) or os.path.islink(SHM_DIR):
        return False
    lib = LIBC[1]
    return lib.mount(b"perch-shm", SHM_DIR.encode(), b"tmpfs", MS_NOSUID | MS_NODEV, SHM_TMPFS.encode()) == 0


def release_shm(mounted):
    if mounted:
        LIBC[1].umount2(SHM_DIR.encode(), MNT_DETACH)


def workdir_full(workdir):
    try:
        info = os.statvfs(workdir)
    except OSError:
        return False
    return info.f_bavail * info.f_frsize < (1 << 20) or info.f_favail == 0


def release_workdir(workdir, mounted):
    if mounted:
        LIBC[1].umount2(workdir.encode(), MNT_DETACH)
    remove_tree(workdir)


COUNTER = [0]
ARRANGED = False
# Set in the check's process just before the candidate's code runs: from then on, anything that
# escapes the harness was caused by that code, so it must never be reported as the sandbox's fault
# (a scoring_error leaves the question out of the score).
CANDIDATE_STARTED = False


def sweep_scratch():
    """Removes whatever is left in the scratch dir once a check is over: a check that wrote beside
    its own workdir (the scratch dir is reachable from it) must neither fill the scratch quota of
    the checks after it nor leave anything there for them to meet. Never follows a link."""
    try:
        names = os.listdir(SCRATCH)
    except OSError:
        return
    for name in names:
        remove_tree(os.path.join(SCRATCH, name))


def run_check(request):
    COUNTER[0] += 1
    # A name the check cannot guess: it must not be able to occupy the next check's dir in advance
    # (a file or link there made that check's setup fail, costing a sandbox restart).
    workdir = os.path.join(SCRATCH, "w%d-%s" % (COUNTER[0], os.urandom(8).hex()))
    quota = request.get("scratch_bytes")
    os.mkdir(workdir, 0o700)
    mounted = False
    shm_mounted = False
    try:
        if quota is not None and LIBC is not None:
            mount_workdir(workdir, quota)
            mounted = True
        if LIBC is not None:
            shm_mounted = mount_shm()
        if RUN_UID is not None:
            os.chown(workdir, RUN_UID, RUN_UID)
        token = os.urandom(16).hex()
        stdin_fd = open_stdin(request.get("stdin"))
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        status_r, status_w = os.pipe()
        ready_r, ready_w = os.pipe()
        go_r, go_w = os.pipe()
        sys.stdout.flush()
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:
            try:
                child_main(request, workdir, stdin_fd, out_w, err_w, status_w, token, (ready_w, go_r))
            except BaseException as error:
                if CANDIDATE_STARTED:
                    # No status: classified as the answer's runtime_error ("exited with code 71").
                    os._exit(71)
                try:
                    failure = {"kind": "sandbox_error", "message": repr(error)[:500], "pid": os.getpid(), "token": token}
                    # The status pipe is fd 3 once child_main has rearranged the descriptors.
                    os.write(3 if ARRANGED else status_w, ("\n" + json.dumps(failure) + "\n").encode())
                except BaseException:
                    pass
                os._exit(70)
            os._exit(0)
        for fd in (stdin_fd, out_w, err_w, status_w, ready_w, go_r):
            os.close(fd)
        try:
            if LIBC is not None and RUN_UID is not None:
                map_user_namespace(pid, ready_r, go_w)
        finally:
            os.close(ready_r)
            os.close(go_w)
        watch = None if mounted or quota is None else quota
        result = supervise(request, pid, started, out_r, err_r, status_r, token, workdir, watch)
        if mounted and workdir_full(workdir):
            result["scratch_exceeded"] = True
        return result
    finally:
        release_workdir(workdir, mounted)
        sweep_scratch()
        release_shm(shm_mounted)


def supervise(request, pid, started, out_r, err_r, status_r, token, workdir, watch):
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
    scratch_exceeded = False
    next_watch = started
    drain_until = None
    while open_fds:
        now = time.monotonic()
        if exit_status is None and now >= deadline:
            timed_out = True
            kill_check(pid)
        if drain_until is not None and now >= drain_until:
            break
        if watch is not None and exit_status is None and now >= next_watch:
            # No tmpfs here (not a linux mode): the check's dir is measured instead, 5 times a second.
            next_watch = now + 0.2
            used, count = tree_usage(workdir, CHECK_FILES)
            if used > watch or count > CHECK_FILES:
                scratch_exceeded = True
                kill_check(pid)
        if exit_status is None:
            wait = max(0.0, deadline - now)
            if pidfd is None:
                wait = min(wait, 0.005)
            if watch is not None:
                wait = min(wait, 0.2)
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
    if watch is not None and not scratch_exceeded:
        used, count = tree_usage(workdir, CHECK_FILES)
        scratch_exceeded = used > watch or count > CHECK_FILES
    status = read_status(bytes(buffers[status_r]).decode("utf-8", "replace"), pid, token)
    cpu = rusage.ru_utime + rusage.ru_stime if rusage else None
    return {
        "status": status,
        "exit_code": os.WEXITSTATUS(exit_status) if os.WIFEXITED(exit_status) else None,
        "signal": os.WTERMSIG(exit_status) if os.WIFSIGNALED(exit_status) else None,
        "timed_out": timed_out,
        "output_exceeded": overflow,
        # Past the soft CPU limit: a check that ignores SIGXCPU is killed (SIGKILL) at the hard one.
        "cpu_exceeded": cpu is not None and cpu >= cpu_limit(request),
        "scratch_exceeded": scratch_exceeded,
        "stdout": bytes(buffers[out_r]).decode("utf-8", "replace"),
        "stderr": bytes(buffers[err_r]).decode("utf-8", "replace"),
        "duration_s": round(duration, 4),
        "cpu_s": round(cpu, 4) if cpu is not None else None,
    }


def read_status(text, pid, token):
    """The status the harness wrote: one line, with this check's token. Anything else on the
    status pipe (the candidate can write to it too) is ignored."""
    for line in text.split("\n"):
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict) and value.get("token") == token and value.get("pid") == pid:
            return value
    return None


def main():
    global LIBC
    configure(json.loads(sys.argv[1]))
    # Signals without a handler cannot reach a pid-namespace init from inside the namespace, so
    # Python's SIGINT handler is removed: a candidate cannot interrupt the zygote.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    remember_pristine()
    LIBC = make_filesystem_read_only() if MODE.startswith("linux-") else None
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


if __name__ == "__main__":
    main()
