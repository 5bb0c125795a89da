// The same bytes give the same results through the C++ API (include/wurl.hpp)
// as through C, the CLI, Perl, Ruby and Python: every row of
// bindings/cross-binding-expected.tsv (written by
// bindings/tools/cross_check.c, with every class of invalid UTF-8 in the
// host, path, query and fragment among real lines) is recomputed with
// wurl::parse, resolve, canonicalize, canon_into and key_into, and the line
// compared byte for byte.
//
//   test_cross_binding bindings/cross-binding-expected.tsv
#include <wurl.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

const std::string_view BASE = "http://base.example/dir/file?q#f";

void put_value(std::string &o, std::optional<std::string_view> v)
{
    o += '\t';
    if (!v) {
        o += "\\N";
        return;
    }
    for (unsigned char c : *v) {
        if (c == '\\') {
            o += "\\\\";
        } else if (c >= 0x21 && c <= 0x7e) {
            o += static_cast<char>(c);
        } else {
            char b[8];
            std::snprintf(b, sizeof b, "\\x%02X", c);
            o += b;
        }
    }
}

std::string unescape(const std::string &s)
{
    std::string out;
    for (std::size_t i = 0; i < s.size(); i++) {
        if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '\\') {
            out += '\\';
            i++;
        } else if (s[i] == '\\' && i + 3 < s.size() && s[i + 1] == 'x') {
            out += static_cast<char>(std::stoi(s.substr(i + 2, 2), nullptr, 16));
            i += 3;
        } else {
            out += s[i];
        }
    }
    return out;
}

std::string handle_line(const std::string &op, std::string_view input, const wurl::url &u)
{
    std::string o = op;
    put_value(o, input);
    o += u.is_invalid() ? "\t1" : "\t0";
    const char *reason = u.invalid_reason();
    put_value(o, reason ? std::optional<std::string_view>(reason) : std::nullopt);
    o += '\t' + std::to_string(static_cast<unsigned>(u.host_kind()));
    put_value(o, u.scheme());
    put_value(o, u.user());
    put_value(o, u.password());
    put_value(o, u.host());
    put_value(o, u.port());
    put_value(o, u.path());
    put_value(o, u.query());
    put_value(o, u.fragment());
    put_value(o, u.serialize());
    return o;
}

std::string string_line(const std::string &op, std::string_view input, wurl::status st, const std::string &s)
{
    if (st != wurl::status::ok && st != wurl::status::invalid_url)
        throw std::runtime_error(op + ": the call failed");
    std::string o = op;
    put_value(o, input);
    o += st == wurl::status::invalid_url ? "\t1" : "\t0";
    for (int k = 0; k < 10; k++)
        put_value(o, std::nullopt);
    put_value(o, st == wurl::status::ok ? std::optional<std::string_view>(s) : std::nullopt);
    return o;
}

std::string compute(const std::string &op, std::string_view input)
{
    if (op == "parse")
        return handle_line(op, input, wurl::parse(input).value());
    if (op == "resolve")
        return handle_line(op, input, wurl::resolve(wurl::parse(BASE).value(), input).value());
    if (op == "canon" || op == "canon_1252") {
        auto r = wurl::resolve(wurl::parse(input).value(), input).value();
        auto c = wurl::canonicalize(r, op == "canon_1252" ? "windows-1252" : "");
        return handle_line(op, input, c.value());
    }
    std::string out;
    if (op == "canon_into")
        return string_line(op, input, wurl::canon_into(out, input), out);
    if (op == "key:surt")
        return string_line(op, input, wurl::key_into(out, input, nullptr, WURL_KEY_SURT), out);
    if (op.rfind("key:", 0) == 0) {
        static std::map<std::string, wurl::rules> compiled;
        auto it = compiled.find(op);
        if (it == compiled.end())
            it = compiled.emplace(op, wurl::rules::compile(op.substr(4)).value()).first;
        return string_line(op, input, wurl::key_into(out, input, &it->second), out);
    }
    throw std::runtime_error("unknown op " + op);
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::cerr << "usage: " << argv[0] << " bindings/cross-binding-expected.tsv\n";
        return 2;
    }
    std::ifstream f(argv[1], std::ios::binary);
    if (!f) {
        std::cerr << argv[1] << ": cannot open\n";
        return 2;
    }
    std::size_t passed = 0, failed = 0;
    std::string line;
    while (std::getline(f, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        std::vector<std::string> cols;
        std::stringstream ss(line);
        for (std::string c; std::getline(ss, c, '\t');)
            cols.push_back(c);
        if (cols.size() != 14) {
            std::cerr << "not 14 columns: " << line << '\n';
            failed++;
            continue;
        }
        const std::string input = unescape(cols[1]);
        const std::string got = compute(cols[0], input);
        if (got == line) {
            passed++;
        } else {
            failed++;
            std::cerr << "expected: " << line << "\n     got: " << got << '\n';
        }
    }
    std::cout << "cxx-cross-binding: " << passed << " passed, " << failed << " failed\n";
    if (passed < 900) {
        std::cerr << "only " << passed << " rows: the table lacks the sample\n";
        return 1;
    }
    return failed ? 1 : 0;
}
