//! The `wurl` binary under faults (issue 12): standard output or standard
//! error full (`/dev/full`), closed, or a pipe whose reader went away (with
//! SIGPIPE at its default and ignored), an output file that stops growing
//! mid-line, a line longer than the 16 MiB limit, a 50 MB invalid line, and
//! a progress bar whose terminal goes away.
//!
//! The rules checked: no panic (exit status 101) and no death by a signal;
//! a failing standard output is exit status 2 and says how many complete
//! records were written; a failing standard error does not stop the
//! processing of standard input (every output line is written) and gives
//! exit status 3; a too-long line is refused without being held in memory,
//! and messages quote at most 200 bytes of an input.

#![cfg(unix)]

use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread;

/// The binary under test: this build's, or `$WURL_FAULTS_BIN` (to check
/// that these tests fail on an older build, e.g. one of the commit before
/// them).
fn bin() -> String {
    std::env::var("WURL_FAULTS_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_wurl").to_owned())
}

/// `invalid` invalid lines, then `valid` valid ones.
fn mixed_input(invalid: usize, valid: usize) -> Vec<u8> {
    let mut v = Vec::new();
    for i in 0..invalid {
        v.extend_from_slice(format!("not a url {i}\n").as_bytes());
    }
    for i in 0..valid {
        v.extend_from_slice(format!("HTTP://Host{}.Example/a/./b/../{i}\n", i % 7).as_bytes());
    }
    v
}

fn dev_full() -> File {
    File::options()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full")
}

/// Feeds `input` to the child's standard input from another thread.
fn feed(child: &mut Child, input: Vec<u8>) -> thread::JoinHandle<()> {
    let mut stdin = child.stdin.take().expect("piped stdin");
    thread::spawn(move || {
        let _ = stdin.write_all(&input);
    })
}

fn read_all(r: Option<impl Read + Send + 'static>) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut v = Vec::new();
        if let Some(mut r) = r {
            let _ = r.read_to_end(&mut v);
        }
        v
    })
}

/// Not killed by a signal, not a panic: the exit code.
fn code(status: ExitStatus) -> i32 {
    assert_eq!(status.signal(), None, "killed by a signal: {status:?}");
    let c = status.code().expect("an exit code");
    assert_ne!(c, 101, "panicked");
    c
}

fn count(b: &[u8], byte: u8) -> usize {
    b.iter().filter(|&&c| c == byte).count()
}

// ---- standard output fails --------------------------------------------------

#[test]
fn stdout_dev_full_is_exit_2_with_what_was_written() {
    for jobs in ["1", "2"] {
        let mut child = Command::new(bin())
            .args(["canon", "--stats", "-j", jobs])
            .stdin(Stdio::piped())
            .stdout(dev_full())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let w = feed(&mut child, mixed_input(0, 1000));
        let err = read_all(child.stderr.take());
        let status = child.wait().unwrap();
        w.join().unwrap();
        let err = String::from_utf8_lossy(&err.join().unwrap()).into_owned();
        assert_eq!(code(status), 2, "-j {jobs}: {err}");
        assert!(
            err.contains("No space left on device") && err.contains("after 0 complete records"),
            "{err}"
        );
        assert!(
            err.contains("0 records written, output INCOMPLETE"),
            "--stats tells: {err}"
        );
    }
}

#[test]
fn stdout_and_stderr_dev_full_is_exit_2_without_panic() {
    let mut child = Command::new(bin())
        .args(["canon", "--stats"])
        .stdin(Stdio::piped())
        .stdout(dev_full())
        .stderr(dev_full())
        .spawn()
        .unwrap();
    let w = feed(&mut child, mixed_input(100, 100));
    let status = child.wait().unwrap();
    w.join().unwrap();
    assert_eq!(code(status), 2);
}

#[test]
fn stdout_closed_is_exit_2() {
    // `>&-`: Rust's runtime would replace the closed descriptor by /dev/null
    // and report success; wurl sees it and refuses.
    for args in ["canon http://a/", "canon", "--help", "--version"] {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("exec \"$0\" {args} >&- </dev/null"))
            .arg(bin())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(code(out.status), 2, "{args}: {err}");
    }
    let out = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" canon http://a/ >&-")
        .arg(bin())
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("standard output is closed"),
        "{out:?}"
    );
}

#[test]
fn stdout_broken_pipe_is_exit_2_with_sigpipe_default_or_ignored() {
    // The reader of the output goes away before anything is written. Rust's
    // Command gives the child SIGPIPE at its default disposition; through
    // `sh -c 'trap "" PIPE; …'` it is ignored. Either way wurl is not killed
    // and exits with 2.
    for ignore in [false, true] {
        for jobs in ["1", "2"] {
            let script = if ignore {
                "trap '' PIPE; exec \"$0\" canon -j \"$1\""
            } else {
                "exec \"$0\" canon -j \"$1\""
            };
            let mut child = Command::new("sh")
                .args(["-c", script, &bin(), jobs])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            drop(child.stdout.take());
            let w = feed(&mut child, mixed_input(0, 50_000));
            let err = read_all(child.stderr.take());
            let status = child.wait().unwrap();
            w.join().unwrap();
            let err = String::from_utf8_lossy(&err.join().unwrap()).into_owned();
            assert_eq!(code(status), 2, "ignore={ignore} -j {jobs}: {err}");
            assert!(err.contains("broken pipe"), "{err}");
        }
    }
}

#[test]
fn output_cut_mid_line_is_reported_in_whole_records() {
    // A file that stops growing (RLIMIT_FSIZE, SIGXFSZ ignored): the first
    // write(2) is cut short mid-line, the next fails. The message and
    // --stats give the number of complete lines, which is what the file
    // holds, and its last line has no line end.
    let dir = std::env::temp_dir().join(format!("wurl-faults-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("out.txt");
    let mut child = Command::new("sh")
        .args([
            "-c",
            "trap '' XFSZ; ulimit -f 20; exec \"$0\" canon --stats > \"$1\"",
            &bin(),
            path.to_str().unwrap(),
        ])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let w = feed(&mut child, mixed_input(0, 20_000));
    let err = read_all(child.stderr.take());
    let status = child.wait().unwrap();
    w.join().unwrap();
    let err = String::from_utf8_lossy(&err.join().unwrap()).into_owned();
    assert_eq!(code(status), 2, "{err}");
    let out = std::fs::read(&path).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let lines = count(&out, b'\n');
    assert!(lines > 0 && out.last() != Some(&b'\n'), "cut mid-line");
    assert!(
        err.contains(&format!(
            "after {lines} complete records and part of one more"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!("{lines} records written, output INCOMPLETE")),
        "{err}"
    );
}

// ---- standard error fails ---------------------------------------------------

/// Runs `wurl ARGS` on `input` with standard error set up by `stderr`;
/// returns (exit code, stdout).
fn with_stderr(args: &[&str], input: Vec<u8>, stderr: Stdio) -> (i32, Vec<u8>) {
    let mut child = Command::new(bin())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let w = feed(&mut child, input);
    let out = read_all(child.stdout.take());
    let status = child.wait().unwrap();
    w.join().unwrap();
    (code(status), out.join().unwrap())
}

#[test]
fn stderr_dev_full_does_not_stop_the_output() {
    // The reported failure: 5,000 invalid lines then valid ones, stderr
    // full: a panic after 2,048 lines. Now every line is written, and the
    // exit status (3) says messages were lost.
    let input = mixed_input(5000, 48_010);
    for args in [
        &["canon"][..],
        &["canon", "--stats"],
        &["canon", "-j", "2", "--stats"],
        &["canon", "-f", "json"],
    ] {
        let (c, out) = with_stderr(args, input.clone(), Stdio::from(dev_full()));
        assert_eq!(c, 3, "{args:?}");
        assert_eq!(count(&out, b'\n'), 53_010, "{args:?}: every line written");
    }
    // Nothing to report (all valid, no --stats): nothing lost, exit 0.
    let (c, out) = with_stderr(&["canon"], mixed_input(0, 100), Stdio::from(dev_full()));
    assert_eq!((c, count(&out, b'\n')), (0, 100));
    // -q: the invalid lines are not reported, so nothing is lost: exit 1.
    let (c, _) = with_stderr(
        &["canon", "-q"],
        mixed_input(10, 10),
        Stdio::from(dev_full()),
    );
    assert_eq!(c, 1);
}

#[test]
fn stderr_broken_pipe_does_not_stop_the_output() {
    for jobs in ["1", "2"] {
        let mut child = Command::new(bin())
            .args(["canon", "--stats", "-j", jobs])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stderr.take());
        let w = feed(&mut child, mixed_input(3000, 10_000));
        let out = read_all(child.stdout.take());
        let status = child.wait().unwrap();
        w.join().unwrap();
        assert_eq!(code(status), 3, "-j {jobs}");
        assert_eq!(count(&out.join().unwrap(), b'\n'), 13_000);
    }
}

#[test]
fn stderr_closed_at_start() {
    // `2>&-`: the messages cannot be written; the output is complete.
    let run = |input: &str| {
        Command::new("sh")
            .args([
                "-c",
                &format!("printf '{input}' | \"$0\" canon 2>&-; echo \" status=$?\""),
                &bin(),
            ])
            .output()
            .unwrap()
    };
    let out = run("bad\\nhttp://a/\\n");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "\nhttp://a/\n status=3\n"
    );
    let out = run("http://a/\\n");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "http://a/\n status=0\n"
    );
}

// ---- limits -----------------------------------------------------------------

const LIMIT: usize = 16 * 1024 * 1024;

fn url_of_len(n: usize) -> Vec<u8> {
    let mut v = b"http://a/".to_vec();
    v.resize(n, b'a');
    v
}

#[test]
fn line_longer_than_16_mib_is_invalid() {
    let exact = url_of_len(LIMIT);
    let over = url_of_len(LIMIT + 1);
    let mut input = b"HTTP://A/x\n".to_vec();
    input.extend_from_slice(&over);
    input.push(b'\n');
    input.extend_from_slice(&exact);
    input.extend_from_slice(b"\r\n");
    input.extend_from_slice(b"http://b/\n");
    for jobs in ["1", "2"] {
        let mut child = Command::new(bin())
            .args(["canon", "-j", jobs])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let w = feed(&mut child, input.clone());
        let out = read_all(child.stdout.take());
        let err = read_all(child.stderr.take());
        let status = child.wait().unwrap();
        w.join().unwrap();
        let out = out.join().unwrap();
        let err = String::from_utf8_lossy(&err.join().unwrap()).into_owned();
        assert_eq!(code(status), 1, "{err}");
        let lines: Vec<&[u8]> = out.split(|&b| b == b'\n').collect();
        assert_eq!(lines.len(), 5, "4 lines and the empty rest");
        assert_eq!(lines[0], b"http://a/x");
        assert_eq!(lines[1], b"", "the too-long line is blank");
        assert_eq!(lines[2], &exact[..], "exactly 16 MiB (CRLF) is accepted");
        assert_eq!(lines[3], b"http://b/");
        let want = format!(
            "wurl: line 2: input longer than 16 MiB: {:?}… ({} bytes)\n",
            String::from_utf8_lossy(&over[..200]),
            LIMIT + 1
        );
        assert_eq!(err, want);
    }
    // --invalid skip, and json with its reason.
    let mut input = over.clone();
    input.extend_from_slice(b"\nhttp://b/\n");
    let run = |args: &[&str]| {
        let mut child = Command::new(bin())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let w = feed(&mut child, input.clone());
        let out = read_all(child.stdout.take());
        let c = code(child.wait().unwrap());
        w.join().unwrap();
        (c, String::from_utf8(out.join().unwrap()).unwrap())
    };
    assert_eq!(
        run(&["canon", "--invalid", "skip", "-q"]),
        (1, "http://b/\n".to_owned())
    );
    let (_, out) = run(&["parse", "-f", "json", "-q"]);
    let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(first["reason"], "input longer than 16 MiB");
    assert_eq!(first["url"], serde_json::Value::Null);
    assert_eq!(first["scheme"], serde_json::Value::Null);
}

/// The peak resident set size of a running process, in KiB (Linux).
fn vm_hwm_kib(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let l = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    l.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn invalid_50_mb_lines_bounded_memory_and_stderr() {
    // The reported failure: one invalid 50 MB line wrote 262 MB to stderr,
    // and a 200 MB line took 1 GB. Now the line is refused while it is read
    // (at most 16 MiB of it held), and the message quotes 200 bytes.
    let line = vec![b'x'; 50_000_000];
    for jobs in ["1", "2"] {
        let mut child = Command::new(bin())
            .args(["canon", "-j", jobs])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let err = read_all(child.stderr.take());
        let line2 = line.clone();
        let w = thread::spawn(move || {
            for _ in 0..2 {
                stdin.write_all(&line2).unwrap();
                stdin.write_all(b"\n").unwrap();
            }
            stdin
        });
        // Two blank output lines: both lines were processed (the output is
        // flushed when no more input is buffered).
        let mut got = [0u8; 2];
        stdout.read_exact(&mut got).unwrap();
        assert_eq!(&got, b"\n\n");
        let hwm = vm_hwm_kib(child.id());
        let mut stdin = w.join().unwrap();
        stdin.write_all(b"http://a/\n").unwrap();
        drop(stdin);
        let mut rest = Vec::new();
        stdout.read_to_end(&mut rest).unwrap();
        assert_eq!(rest, b"http://a/\n");
        assert_eq!(code(child.wait().unwrap()), 1);
        let err = err.join().unwrap();
        assert!(err.len() < 700, "stderr: {} bytes", err.len());
        assert_eq!(count(&err, b'\n'), 2);
        assert!(
            String::from_utf8_lossy(&err).contains("… (50000000 bytes)"),
            "{}",
            String::from_utf8_lossy(&err)
        );
        if let Some(kib) = hwm {
            eprintln!("-j {jobs}: peak RSS {kib} KiB after two 50 MB lines");
            assert!(kib < 48 * 1024, "-j {jobs}: peak RSS {kib} KiB");
        }
    }
}

#[test]
fn messages_quote_at_most_200_bytes() {
    let mut input = b"no scheme ".to_vec();
    input.resize(1000, b'z');
    let mut child = Command::new(bin())
        .arg("canon")
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let w = feed(&mut child, input.clone());
    let err = read_all(child.stderr.take());
    assert_eq!(code(child.wait().unwrap()), 1);
    w.join().unwrap();
    let stderr = String::from_utf8_lossy(&err.join().unwrap()).into_owned();
    let want = format!(
        "{:?}… (1000 bytes)\n",
        String::from_utf8_lossy(&input[..200])
    );
    assert!(stderr.ends_with(&want), "{stderr}");
    assert!(stderr.len() < 320, "{stderr}");
}

// ---- the progress bar -------------------------------------------------------

#[test]
fn progress_bar_on_a_terminal_that_goes_away() {
    // The bar is drawn only on a terminal: `script` gives wurl one (a pty).
    // Once the bar is drawn, the terminal goes away (script is killed, so
    // the pty's other side is closed; SIGHUP is ignored), and the bar's
    // next writes fail. wurl still writes every output line, and its exit
    // status is 3. Standard output is a FIFO that this test drains only
    // after the terminal is gone, so that wurl is still running then.
    let have = |cmd: &str| {
        Command::new("sh")
            .args(["-c", &format!("command -v {cmd}")])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let pty_works = have("script")
        && Command::new("script")
            .args(["-qec", "echo pty-ok", "/dev/null"])
            .stdin(Stdio::piped())
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("pty-ok"));
    if !pty_works || !have("mkfifo") {
        eprintln!("skipped: script(1) cannot give a terminal here, or mkfifo(1) is missing");
        return;
    }
    let dir = std::env::temp_dir().join(format!("wurl-faults-pty-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.txt");
    std::fs::write(&input, mixed_input(0, 200_000)).unwrap();
    let fifo = dir.join("out.fifo");
    let status_file = dir.join("status");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let inner = format!(
        "trap '' HUP; '{}' canon -i '{}' > '{}'; echo $? > '{}'",
        bin(),
        input.display(),
        fifo.display(),
        status_file.display()
    );
    let mut script = Command::new("script")
        .args(["-qec", &inner, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Opening the FIFO lets wurl start; it fills the pipe and waits.
    let fifo2 = fifo.clone();
    let reader = thread::spawn(move || File::open(fifo2).unwrap());
    let mut term = script.stdout.take().unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 256];
    while !String::from_utf8_lossy(&seen).contains("ETA") {
        let n = term.read(&mut buf).unwrap();
        assert!(n > 0, "no progress bar on the terminal: {seen:?}");
        seen.extend_from_slice(&buf[..n]);
    }
    script.kill().unwrap();
    let _ = script.wait();
    drop(term);
    let mut out = Vec::new();
    reader.join().unwrap().read_to_end(&mut out).unwrap();
    let mut status = String::new();
    for _ in 0..600 {
        status = std::fs::read_to_string(&status_file).unwrap_or_default();
        if status.ends_with('\n') {
            break;
        }
        thread::sleep(std::time::Duration::from_millis(100));
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(count(&out, b'\n'), 200_000, "every line written");
    assert_eq!(
        status.trim(),
        "3",
        "exit status when the bar cannot be drawn"
    );
}
