//! The man page and the shell completion scripts, generated from the clap
//! definition (`wurl generate man|bash|zsh|fish`, a hidden command that the
//! CMake build runs to make the files it installs).

use clap::ValueEnum;
use clap_complete::Shell;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum What {
    /// The man page `wurl.1` (roff).
    Man,
    /// bash completion (`share/bash-completion/completions/wurl`).
    Bash,
    /// zsh completion (`share/zsh/site-functions/_wurl`).
    Zsh,
    /// fish completion (`share/fish/vendor_completions.d/wurl.fish`).
    Fish,
}

/// The file's content.
pub fn generate(what: What, cmd: clap::Command) -> Vec<u8> {
    let mut out = Vec::new();
    let shell = match what {
        What::Man => {
            man(cmd, &mut out);
            return out;
        }
        What::Bash => Shell::Bash,
        What::Zsh => Shell::Zsh,
        What::Fish => Shell::Fish,
    };
    let mut cmd = cmd;
    clap_complete::generate(shell, &mut cmd, "wurl", &mut out);
    out
}

/// Roff text as it is: backslashes doubled and a leading `.` or `'` made
/// literal.
fn roff_literal(line: &str) -> String {
    let s = line.replace('\\', "\\e");
    if s.starts_with('.') || s.starts_with('\'') {
        format!("\\&{s}")
    } else {
        s
    }
}

/// One page for the whole tool: the top-level sections from clap_mangen,
/// then for each command its synopsis, description and options, then the
/// top-level help text (formats, invalid inputs, exit status, examples) as
/// preformatted text.
fn man(cmd: clap::Command, out: &mut Vec<u8>) {
    let mut cmd = cmd.disable_help_subcommand(true);
    cmd.build();
    let page = clap_mangen::Man::new(cmd.clone())
        .title("WURL")
        .section("1")
        .manual("User Commands");
    // Writing into a Vec cannot fail.
    let _ = page.render_title(out);
    let _ = page.render_name_section(out);
    let _ = page.render_synopsis_section(out);
    let _ = page.render_description_section(out);
    let _ = page.render_options_section(out);
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = format!("wurl {}", sub.get_name());
        out.extend_from_slice(format!(".SH \"{}\"\n", name.to_uppercase()).as_bytes());
        let sub_page = clap_mangen::Man::new(sub.clone().bin_name(&name));
        let mut text = Vec::new();
        let _ = sub_page.render_synopsis_section(&mut text);
        let _ = sub_page.render_description_section(&mut text);
        let _ = sub_page.render_options_section(&mut text);
        // Its sections become subsections of this one.
        let text = String::from_utf8_lossy(&text).replace(".SH ", ".SS ");
        out.extend_from_slice(text.as_bytes());
        if let Some(after) = sub.get_after_help() {
            out.extend_from_slice(b".PP\n.nf\n");
            for line in after.to_string().lines() {
                out.extend_from_slice(roff_literal(line).as_bytes());
                out.push(b'\n');
            }
            out.extend_from_slice(b".fi\n");
        }
    }
    if let Some(after) = cmd.get_after_help() {
        out.extend_from_slice(b".SH DETAILS\n.nf\n");
        for line in after.to_string().lines() {
            out.extend_from_slice(roff_literal(line).as_bytes());
            out.push(b'\n');
        }
        out.extend_from_slice(b".fi\n");
    }
    let _ = page.render_version_section(out);
    // Each render call starts with the same two-line preamble: keep the
    // first.
    let text = String::from_utf8_lossy(out).into_owned();
    let mut seen = false;
    let mut kept = String::with_capacity(text.len());
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.starts_with(".ie \\n(.g .ds Aq")
            && lines.peek().is_some_and(|n| n.starts_with(".el .ds Aq"))
        {
            lines.next();
            if seen {
                continue;
            }
            seen = true;
            kept.push_str(line);
            kept.push('\n');
            kept.push_str(".el .ds Aq '\n");
            continue;
        }
        kept.push_str(line);
        kept.push('\n');
    }
    *out = kept.into_bytes();
}
