//! `-f html` of `audit` and `compare`: one self-contained page (no script, no network, inline SVG):
//! a bar chart of counts per class, the summary table and the examples. Every figure is also in a
//! `data-` attribute, so that a browser's DOM gives it back (cli/tests/html.rs reads it there).

use std::fmt::Write as _;

/// One bar of the chart.
pub struct Bar<'a> {
    pub label: &'a str,
    /// A note after the label (a risk, a description).
    pub note: &'a str,
    pub count: u64,
    /// The bar's colour.
    pub colour: &'static str,
}

/// One group of examples: a heading, its class and figure, its lines.
pub struct Group<'a> {
    pub class: &'a str,
    pub heading: String,
    pub count: u64,
    pub lines: Vec<String>,
}

/// `s` with `&`, `<`, `>`, `"` and `'` escaped, for text and attribute values alike.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:1100px}\
h1{font-size:1.4em}h2{font-size:1.1em;margin-top:1.6em}\
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}\
td.n{text-align:right;font-variant-numeric:tabular-nums}\
.group{margin:.6em 0}.group h3{font-size:1em;margin:.2em 0;font-family:monospace}\
.group ul{margin:.1em 0 .1em 1.2em;padding:0;font-family:monospace;word-break:break-all}\
svg text{font:12px system-ui,sans-serif}";

/// The page: `title`, the `summary` rows (figure name, label, value), the chart of `bars`, the
/// `groups`.
pub fn page(
    title: &str,
    summary: &[(&str, &str, u64)],
    chart_title: &str,
    bars: &[Bar],
    groups_title: &str,
    groups: &[Group],
) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{t}</title>\
         <style>{STYLE}</style></head><body>\n<h1>{t}</h1>\n<table id=\"summary\">",
        t = escape(title)
    );
    for (name, label, value) in summary {
        let _ = write!(
            s,
            "<tr><th>{}</th><td class=\"n\" data-figure=\"{}\">{}</td></tr>",
            escape(label),
            escape(name),
            value
        );
    }
    s.push_str("</table>\n");
    let _ = writeln!(s, "<h2>{}</h2>", escape(chart_title));
    let max = bars.iter().map(|b| b.count).max().unwrap_or(0).max(1);
    let (label_w, bar_w, row_h) = (330u64, 560u64, 22u64);
    let height = row_h * bars.len() as u64 + 4;
    let _ = write!(
        s,
        "<svg id=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{height}\" \
         role=\"img\" aria-label=\"{}\">",
        label_w + bar_w + 90,
        escape(chart_title)
    );
    for (i, b) in bars.iter().enumerate() {
        let y = i as u64 * row_h + 2;
        let w = if b.count == 0 {
            0
        } else {
            (b.count * bar_w / max).max(2)
        };
        let _ = write!(
            s,
            "<g class=\"bar\" data-label=\"{l}\" data-count=\"{c}\">\
             <text x=\"0\" y=\"{ty}\">{l} <tspan fill=\"#777\">{n}</tspan></text>\
             <rect x=\"{label_w}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" fill=\"{col}\"></rect>\
             <text x=\"{tx}\" y=\"{ty}\">{c}</text></g>",
            l = escape(b.label),
            n = escape(b.note),
            c = b.count,
            ty = y + 14,
            h = row_h - 6,
            col = b.colour,
            tx = label_w + w + 6,
        );
    }
    s.push_str("</svg>\n");
    if !groups.is_empty() {
        let _ = write!(
            s,
            "<h2>{}</h2>\n<section id=\"groups\">",
            escape(groups_title)
        );
        for g in groups {
            let _ = write!(
                s,
                "<div class=\"group\" data-class=\"{}\" data-count=\"{}\"><h3>[{}] {}</h3><ul>",
                escape(g.class),
                g.count,
                escape(g.class),
                escape(&g.heading)
            );
            for l in &g.lines {
                let _ = write!(s, "<li>{}</li>", escape(l));
            }
            s.push_str("</ul></div>");
        }
        s.push_str("</section>\n");
    }
    s.push_str("</body></html>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped() {
        assert_eq!(
            escape("<a href='x'>&\"</a>"),
            "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;"
        );
        let p = page(
            "t<",
            &[("inputs", "inputs", 3)],
            "c",
            &[Bar {
                label: "a<b",
                note: "",
                count: 2,
                colour: "#000",
            }],
            "g",
            &[Group {
                class: "x",
                heading: "<script>".into(),
                count: 1,
                lines: vec!["\"".into()],
            }],
        );
        assert!(!p.contains("<script>") && p.contains("&lt;script&gt;"));
        assert!(p.contains("data-figure=\"inputs\">3<"));
        assert!(p.contains("data-label=\"a&lt;b\" data-count=\"2\""));
    }
}
