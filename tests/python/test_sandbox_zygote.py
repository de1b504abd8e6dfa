"""The sandbox zygote's helpers (src-main/evals/scoring/sandboxZygote.py), imported without running
the fork server. run_check is exercised in the plain mode: a real fork, pipes and limits, no
namespaces (those need the zygote's own start, covered by tests/integration/evals)."""
import contextlib
import io
import json
import os
import shutil
import stat
import tempfile
import unittest

from loadSource import load_source

zygote = load_source("src-main/evals/scoring/sandboxZygote.py", "sandbox_zygote")


def request(code, **overrides):
    base = {
        "code": code,
        "stdin": None,
        "timeout_s": 10,
        "cpu_s": 5,
        "memory_bytes": None,
        "output_limit_bytes": 4096,
        "file_size_bytes": 1 << 20,
        "scratch_bytes": None,
        "processes": None,
        "env": {"PATH": "/usr/bin:/bin"},
    }
    base.update(overrides)
    return base


class ReadStatusTest(unittest.TestCase):
    def test_takes_only_the_line_with_this_checks_token_and_pid(self):
        real = json.dumps({"kind": "completed", "pid": 42, "token": "abc"})
        forged = [
            json.dumps({"kind": "completed", "pid": 42}),
            json.dumps({"kind": "completed", "pid": 42, "token": "guess"}),
            json.dumps({"kind": "completed", "pid": 41, "token": "abc"}),
            json.dumps(["kind", "completed"]),
            "not json",
        ]
        self.assertEqual(zygote.read_status("\n".join(forged + [real]), 42, "abc")["kind"], "completed")
        self.assertIsNone(zygote.read_status("\n".join(forged), 42, "abc"))
        self.assertIsNone(zygote.read_status("", 42, "abc"))


class LimitTest(unittest.TestCase):
    def test_cpu_limit_rounds_up_to_whole_seconds_and_is_at_least_one(self):
        self.assertEqual(zygote.cpu_limit({"cpu_s": 0.2}), 1)
        self.assertEqual(zygote.cpu_limit({"cpu_s": 2}), 2)
        self.assertEqual(zygote.cpu_limit({"cpu_s": 2.5}), 3)

    def test_configure_counts_processes_only_with_a_uid_or_namespace_of_the_sandboxs_own(self):
        try:
            zygote.configure({"mode": "plain", "scratch": "/tmp/x"})
            self.assertEqual((zygote.MODE, zygote.SCRATCH, zygote.RUN_UID), ("plain", "/tmp/x", None))
            self.assertFalse(zygote.COUNT_PROCESSES)
            zygote.configure({"mode": "darwin", "scratch": "/tmp/x", "uid": 65534})
            self.assertTrue(zygote.COUNT_PROCESSES)
            zygote.configure({"mode": "linux-user", "scratch": "/tmp/x"})
            self.assertTrue(zygote.COUNT_PROCESSES)
            # Not pid 1 of a namespace here: kill(-1) would hit the host.
            self.assertFalse(zygote.NAMESPACE_INIT)
        finally:
            zygote.configure({"mode": "plain", "scratch": None})

    def test_apply_limits_sets_the_checks_rlimits(self):
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(read_end)
                memory = 768 << 20
                zygote.apply_limits(request("", cpu_s=2.5, memory_bytes=memory, file_size_bytes=4096))
                import resource

                limits = [
                    resource.getrlimit(kind)
                    for kind in (resource.RLIMIT_CPU, resource.RLIMIT_AS, resource.RLIMIT_FSIZE, resource.RLIMIT_CORE)
                ]
                os.write(write_end, json.dumps(limits).encode())
            finally:
                os._exit(0)
        os.close(write_end)
        with os.fdopen(read_end) as handle:
            limits = json.loads(handle.read())
        os.waitpid(pid, 0)
        self.assertEqual(limits, [[3, 4], [768 << 20, 768 << 20], [4096, 4096], [0, 0]])


class OutputTest(unittest.TestCase):
    def test_text_stream_writes_utf8_and_escapes_what_cannot_be_encoded(self):
        read_end, write_end = os.pipe()
        try:
            stream = zygote.text_stream(write_end, "w")
            stream.write("é \udcff")
            stream.flush()
            self.assertEqual(os.read(read_end, 100), "é \\udcff".encode())
        finally:
            os.close(read_end)
            os.close(write_end)

    def test_open_stdin_holds_the_text_from_its_start_and_none_is_empty(self):
        fd = zygote.open_stdin("1 2\nhéllo\n")
        try:
            self.assertEqual(os.read(fd, 100), "1 2\nhéllo\n".encode())
        finally:
            os.close(fd)
        fd = zygote.open_stdin(None)
        try:
            self.assertEqual(os.read(fd, 100), b"")
        finally:
            os.close(fd)

    def test_unescape_mount_path_decodes_mountinfo_octal_escapes(self):
        self.assertEqual(zygote.unescape_mount_path(b"/mnt/my\\040disk\\011x"), "/mnt/my disk\tx")


class RunCandidateTest(unittest.TestCase):
    def run_quietly(self, source):
        errors = io.StringIO()
        with contextlib.redirect_stderr(errors):
            status = zygote.run_candidate(source)
        return status, errors.getvalue()

    def test_reports_how_the_candidate_ended(self):
        self.assertEqual(self.run_quietly("x = 1")[0], {"kind": "completed"})
        self.assertEqual(self.run_quietly("import sys\nsys.exit(3)")[0], {"kind": "exit", "code": 3})
        self.assertEqual(self.run_quietly("import sys\nsys.exit()")[0], {"kind": "exit", "code": None})
        self.assertEqual(self.run_quietly("import sys\nsys.exit('no')")[0], {"kind": "exit", "code": 1})
        status, _ = self.run_quietly("def f(:\n    pass")
        self.assertEqual((status["kind"], status["type"]), ("syntax_error", "SyntaxError"))

    def test_an_exception_names_its_type_and_the_traceback_starts_at_the_candidates_code(self):
        status, stderr = self.run_quietly("def f():\n    raise ValueError('bad ' * 500)\nf()")
        self.assertEqual((status["kind"], status["type"]), ("exception", "ValueError"))
        self.assertEqual(len(status["message"]), 1000)
        self.assertIn('File "solution.py", line 3', stderr)
        self.assertNotIn("run_candidate", stderr)

    def test_the_candidate_runs_as_main_with_its_own_globals(self):
        status, _ = self.run_quietly("assert __name__ == '__main__' and __file__ == 'solution.py'\nassert 'zygote' not in globals()")
        self.assertEqual(status, {"kind": "completed"})


class TreeTest(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="perch-zygote-test-")

    def tearDown(self):
        for folder, dirs, _ in os.walk(self.root):
            for name in dirs:
                os.chmod(os.path.join(folder, name), 0o700)
        shutil.rmtree(self.root, ignore_errors=True)

    def test_tree_usage_counts_entries_and_bytes_without_following_links(self):
        check = os.path.join(self.root, "check")
        outside = os.path.join(self.root, "outside")
        os.makedirs(os.path.join(check, "sub"))
        os.makedirs(outside)
        for index in range(20):
            with open(os.path.join(outside, "f%d" % index), "wb") as handle:
                handle.write(b"x" * 100000)
        with open(os.path.join(check, "sub", "data"), "wb") as handle:
            handle.write(b"y" * 50000)
        os.symlink(outside, os.path.join(check, "link"))
        used, count = zygote.tree_usage(check, 10000)
        self.assertEqual(count, 3)  # sub, sub/data, link
        self.assertGreaterEqual(used, 50000)
        self.assertLess(used, 1000000)

    def test_remove_tree_removes_locked_dirs_and_never_follows_a_link_out(self):
        check = os.path.join(self.root, "check")
        outside = os.path.join(self.root, "outside")
        locked = os.path.join(check, "locked")
        os.makedirs(locked)
        os.makedirs(outside)
        keep = os.path.join(outside, "keep")
        with open(keep, "w") as handle:
            handle.write("host file")
        with open(os.path.join(locked, "inner"), "w") as handle:
            handle.write("x")
        os.symlink(outside, os.path.join(check, "link"))
        os.chmod(locked, stat.S_IRUSR | stat.S_IXUSR)
        zygote.remove_tree(check)
        self.assertFalse(os.path.lexists(check))
        self.assertTrue(os.path.exists(keep))
        # A link as the path itself: the link goes, its target stays.
        link = os.path.join(self.root, "alone")
        os.symlink(outside, link)
        zygote.remove_tree(link)
        self.assertFalse(os.path.lexists(link))
        self.assertTrue(os.path.exists(keep))
        zygote.remove_tree(os.path.join(self.root, "missing"))  # never raises


class RunCheckTest(unittest.TestCase):
    """A whole check in the plain mode: fork, pipes, limits and the status token."""

    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="perch-zygote-scratch-")
        zygote.configure({"mode": "plain", "scratch": self.scratch})

    def tearDown(self):
        zygote.configure({"mode": "plain", "scratch": None})
        shutil.rmtree(self.scratch, ignore_errors=True)

    def test_runs_the_candidate_with_its_stdin_and_reports_its_output(self):
        result = zygote.run_check(request("import sys\nprint(sys.stdin.read().upper())", stdin="hi"))
        self.assertEqual(result["status"]["kind"], "completed")
        self.assertEqual(result["stdout"], "HI\n")
        self.assertEqual(result["exit_code"], 0)
        self.assertFalse(result["timed_out"] or result["output_exceeded"])
        # The check's dir is gone afterwards.
        self.assertEqual(os.listdir(self.scratch), [])

    def test_a_status_forged_by_the_candidate_is_ignored(self):
        forge = "import os, json\nos.write(3, (json.dumps({'kind': 'completed', 'pid': os.getpid()}) + '\\n').encode())\nos._exit(0)"
        result = zygote.run_check(request(forge))
        self.assertIsNone(result["status"])

    def test_output_past_the_limit_and_time_past_the_timeout_kill_the_check(self):
        flood = zygote.run_check(request("while True:\n    print('x' * 1000)", output_limit_bytes=2048))
        self.assertTrue(flood["output_exceeded"])
        self.assertEqual(len(flood["stdout"]), 2048)
        hang = zygote.run_check(request("import time\ntime.sleep(30)", timeout_s=0.3))
        self.assertTrue(hang["timed_out"])
        self.assertIsNone(hang["status"])
        self.assertLess(hang["duration_s"], 5)

    def test_a_check_cannot_prepare_the_next_checks_dir_or_leave_files_behind(self):
        # The old names were w1, w2, ...: planting the next one made that check's setup fail.
        plant = "import os\nfor n in range(1, 50):\n    open(os.path.join('..', 'w%d' % n), 'w').close()\nopen('../left-behind', 'w').close()"
        first = zygote.run_check(request(plant))
        self.assertEqual(first["status"]["kind"], "completed")
        self.assertEqual(os.listdir(self.scratch), [])
        second = zygote.run_check(request("print('fine')"))
        self.assertEqual(second["status"]["kind"], "completed")
        self.assertEqual(second["stdout"], "fine\n")

    def test_the_environment_is_the_requests_only(self):
        os.environ["PERCH_SECRET_FOR_TEST"] = "leak"
        try:
            result = zygote.run_check(request("import os\nprint(sorted(os.environ))"))
        finally:
            del os.environ["PERCH_SECRET_FOR_TEST"]
        self.assertEqual(result["stdout"].strip(), str(["HOME", "PATH", "TMPDIR"]))


if __name__ == "__main__":
    unittest.main()
