// The C++ bulk helpers against the C call they wrap, in one run: each
// sample canonicalizes every URL of a list once (against itself, UTF-8
// query, no flags), with wurl_canon_into into one reused 64 KiB buffer (the
// `wurl-into` row of the Rust benchmark), with wurl::canon_into into one
// reused std::string, or with wurl::buffer::canon into one reused
// wurl::buffer. Every repetition takes one sample of each, in an order that
// rotates, so all see the same machine; the median and fastest sample are
// reported per URL, on the thread's CPU clock.
//
//   wurl-bench-cxx [--reps N] [--check] [FILE]      (FILE: bench/data/kasztp.txt)
//
// It also checks (and exits 1 otherwise) that the three paths give the same
// bytes and the same status for every URL, and that the C++ paths allocate
// nothing in steady state: the program counts every operator new during the
// timed C++ samples (the Rust side's own allocations are the C call's, and
// the same for every row). --check runs those checks with one sample each.
#include <wurl.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <new>
#include <sstream>
#include <string>
#include <vector>

namespace {
std::atomic<unsigned long> g_news{0};
}

// Every allocation of the C++ side goes through these.
void *operator new(std::size_t n)
{
    g_news.fetch_add(1, std::memory_order_relaxed);
    if (void *p = std::malloc(n ? n : 1))
        return p;
    throw std::bad_alloc();
}
void operator delete(void *p) noexcept { std::free(p); }
void operator delete(void *p, std::size_t) noexcept { std::free(p); }

namespace {

double cpu_seconds()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// One URL per line; a leading BOM, `\r` and empty lines dropped (as the
// Rust benchmark loads its datasets).
std::vector<std::string> load(const char *path)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        std::fprintf(stderr, "cannot read %s\n", path);
        std::exit(2);
    }
    std::vector<std::string> urls;
    std::string line;
    bool first = true;
    while (std::getline(f, line)) {
        if (first && line.compare(0, 3, "\xEF\xBB\xBF") == 0)
            line.erase(0, 3);
        first = false;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (!line.empty())
            urls.push_back(line);
    }
    return urls;
}

// What a sample leaves behind, so that no work is optimized away and the
// paths can be compared: a hash of every output and status. It reads eight
// bytes a step, so that its chain of multiplications stays small beside
// the call that is timed (byte by byte it would take as long as the call).
struct digest {
    unsigned long long h = 1469598103934665603ull;
    unsigned long valid = 0;
    void add(const char *p, std::size_t n, int st)
    {
        std::size_t i = 0;
        for (; i + 8 <= n; i += 8) {
            unsigned long long w;
            std::memcpy(&w, p + i, 8);
            h = (h ^ w) * 1099511628211ull;
        }
        for (; i < n; ++i)
            h = (h ^ static_cast<unsigned char>(p[i])) * 1099511628211ull;
        h = (h ^ static_cast<unsigned>(st + 256)) * 1099511628211ull;
        valid += st == WURL_OK;
    }
    bool operator==(const digest &o) const { return h == o.h && valid == o.valid; }
};

__attribute__((noinline)) digest run_c(const std::vector<std::string> &urls, std::vector<char> &buf)
{
    digest d;
    for (const std::string &u : urls) {
        std::size_t len = 0;
        wurl_status st = wurl_canon_into(nullptr, u.data(), u.size(), nullptr, 0, 0, buf.data(), buf.size(), &len);
        d.add(buf.data(), st == WURL_OK ? len : 0, st);
    }
    return d;
}

__attribute__((noinline)) digest run_cxx(const std::vector<std::string> &urls, std::string &out)
{
    digest d;
    for (const std::string &u : urls) {
        wurl::status st = wurl::canon_into(out, u);
        d.add(out.data(), out.size(), static_cast<int>(st));
    }
    return d;
}

__attribute__((noinline)) digest run_buf(const std::vector<std::string> &urls, wurl::buffer &buf)
{
    digest d;
    for (const std::string &u : urls) {
        auto r = buf.canon(u);
        d.add(r->data(), r->size(), static_cast<int>(r.code()));
    }
    return d;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    int reps = 11;
    bool check_only = false;
    const char *path = "bench/data/kasztp.txt";
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--reps" && i + 1 < argc)
            reps = std::max(1, std::atoi(argv[++i]));
        else if (a == "--check")
            check_only = true;
        else
            path = argv[i];
    }
    if (check_only)
        reps = 1;

    const std::vector<std::string> urls = load(path);
    if (urls.empty()) {
        std::fprintf(stderr, "no URLs in %s\n", path);
        return 2;
    }
    std::vector<char> buf(64 * 1024);
    std::string out;
    out.reserve(64 * 1024 - 1);  // the same room as the C buffer
    wurl::buffer wb(64 * 1024 - 1);

    // Warm-up: one untimed pass of each, and the per-URL agreement check.
    digest dc = run_c(urls, buf), dx = run_cxx(urls, out), db = run_buf(urls, wb);
    unsigned long differ = 0;
    for (const std::string &u : urls) {
        std::size_t len = 0;
        wurl_status st = wurl_canon_into(nullptr, u.data(), u.size(), nullptr, 0, 0, buf.data(), buf.size(), &len);
        const std::string want(buf.data(), st == WURL_OK ? len : 0);
        wurl::status sx = wurl::canon_into(out, u);
        if (static_cast<wurl_status>(sx) != st || out != want)
            ++differ;
        auto rb = wb.canon(u);
        if (static_cast<wurl_status>(rb.code()) != st || *rb != want)
            ++differ;
    }

    std::vector<double> tc, tx, tb;
    tc.reserve(reps);
    tx.reserve(reps);
    tb.reserve(reps);
    unsigned long news_in_cxx = 0;
    for (int r = 0; r < reps; ++r) {
        // Rotate the order: C, string, buffer; string, buffer, C; ...
        for (int k = 0; k < 3; ++k) {
            const int which = (r + k) % 3;
            if (which == 0) {
                double t0 = cpu_seconds();
                digest d = run_c(urls, buf);
                tc.push_back(cpu_seconds() - t0);
                if (!(d == dc))
                    ++differ;
            } else {
                unsigned long n0 = g_news.load();
                double t0 = cpu_seconds();
                digest d = which == 1 ? run_cxx(urls, out) : run_buf(urls, wb);
                double t = cpu_seconds() - t0;
                news_in_cxx += g_news.load() - n0;
                (which == 1 ? tx : tb).push_back(t);
                if (!(d == (which == 1 ? dx : db)))
                    ++differ;
            }
        }
    }

    const double n = static_cast<double>(urls.size());
    std::printf("%s: %zu URLs, %lu valid, %d repetitions (CPU time of this thread)\n", path, urls.size(), dc.valid,
                reps);
    if (!check_only) {
        double mc = median(tc) / n * 1e9, mx = median(tx) / n * 1e9, mb = median(tb) / n * 1e9;
        std::printf("| row | ns/URL (median) | min ns/URL | / C (median) |\n|---|---|---|---|\n");
        std::printf("| C `wurl_canon_into` | %.1f | %.1f | 1.000x |\n", mc,
                    *std::min_element(tc.begin(), tc.end()) / n * 1e9);
        std::printf("| C++ `wurl::canon_into` (std::string) | %.1f | %.1f | %.3fx |\n", mx,
                    *std::min_element(tx.begin(), tx.end()) / n * 1e9, mx / mc);
        std::printf("| C++ `wurl::buffer::canon` | %.1f | %.1f | %.3fx |\n", mb,
                    *std::min_element(tb.begin(), tb.end()) / n * 1e9, mb / mc);
    }
    const bool same = dc == dx && dc == db && differ == 0;
    std::printf("outputs identical: %s; C++ allocations in the timed samples: %lu\n", same ? "yes" : "NO",
                news_in_cxx);
    if (!same || news_in_cxx != 0 || dc.valid == 0)
        return 1;
    return 0;
}
