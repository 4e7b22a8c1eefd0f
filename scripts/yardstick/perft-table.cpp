// A measuring yardstick for deep English-draughts perft with a table of exact counts
// (not part of ply; scripts/perft-yardstick.sh builds and runs it beside ply).
//
// The move generator is the tight C++ reference perft kept outside the repository
// (shared/peers/checkers-tight/tight.cpp, included below with its `main` renamed).
// This file adds what ply's deep perft does, in the plainest form, to measure how fast
// this machine can run that design: a table of 64-byte buckets holding four 16-byte
// entries (tag | count | depth); the key (black, white, kings, side: 97 bits) mixed by
// a bijection whose low bits pick the bucket and whose high bits are the tag, so a
// match is the whole position; probes and stores at remaining depth >= 3; replacement
// of an empty entry, else the smallest depth, then the smallest count; every child's
// bucket prefetched before the first child is counted; the tree split at ply 4 (every
// path, no merging) and the subtrees taken by threads one at a time. Unlike ply's
// table, entries are written with two plain 8-byte stores and read without a check, so
// two threads could tear an entry: a yardstick for speed, not a counter to trust (its
// totals are compared with the published counts by the script).
//
//   g++ -O3 -march=native -std=c++17 -pthread -I PEERS/checkers-tight perft-table.cpp
//   TABLE_MB=2048 THREADS=2 ./a.out 18
#define main tight_main
#include "tight.cpp"
#undef main

#include <atomic>
#include <chrono>
#include <sys/mman.h>
#include <thread>
#include <type_traits>
#include <vector>

typedef unsigned __int128 u128;

static u64* g_table = nullptr;
static u64 g_buckets = 0;
static int g_index_bits = 0;
// An entry: tag (KEY_BITS - index bits) | count | depth (6 bits), in 128 bits.
static int g_count_bits = 0, g_tag_shift = 0;
static std::atomic<u64> g_probes{0}, g_hits{0};

static constexpr int KEY_BITS = 97, DEPTH_BITS = 6;

static inline u128 mix(u128 x) {
    const u128 mask = (((u128)1) << KEY_BITS) - 1;
    const int s = (KEY_BITS + 1) / 2;
    const u128 m1 = ((u128)0x9e3779b97f4a7c15ull << 64) | 0xf39cc0605cedc835ull;
    const u128 m2 = ((u128)0xbf58476d1ce4e5b9ull << 64) | 0x94d049bb133111ebull;
    x &= mask;
    x ^= x >> s;
    x = (x * m1) & mask;
    x ^= x >> s;
    x = (x * m2) & mask;
    x ^= x >> s;
    return x;
}

template <bool BLACK> static inline u128 slot_of(u32 me, u32 opp, u32 kings) {
    u32 black = BLACK ? me : opp, white = BLACK ? opp : me;
    return mix((u128)black | ((u128)white << 32) | ((u128)kings << 64) | ((u128)(BLACK ? 0 : 1) << 96));
}

static inline u64* bucket_of(u128 slot) { return g_table + 8 * (u64)(slot & (g_buckets - 1)); }
static inline u128 entry_at(const u64* b, int i) { return (u128)b[2 * i] | ((u128)b[2 * i + 1] << 64); }

static inline bool probe(u128 slot, int depth, u64& count) {
    const u64* b = bucket_of(slot);
    u128 tag = slot >> g_index_bits;
    for (int i = 0; i < 4; i++) {
        u128 e = entry_at(b, i);
        if (e != 0 && (e & 63) == (u128)depth && (e >> g_tag_shift) == tag) {
            count = (u64)((e >> DEPTH_BITS) & ((((u128)1) << g_count_bits) - 1));
            return true;
        }
    }
    return false;
}

static inline void store(u128 slot, int depth, u64 count) {
    if (g_count_bits < 64 && (count >> g_count_bits)) return;
    u64* b = bucket_of(slot);
    u128 e_new = ((slot >> g_index_bits) << g_tag_shift) | ((u128)count << DEPTH_BITS) | (u128)depth;
    int victim = 0;
    u128 worst = ~(u128)0;
    for (int i = 0; i < 4; i++) {
        u128 e = entry_at(b, i);
        u128 rank = e == 0 ? 0 : (((e & 63) << 64) | (((e >> DEPTH_BITS) & ((((u128)1) << g_count_bits) - 1)) + 1));
        if (rank < worst) worst = rank, victim = i;
    }
    b[2 * victim] = (u64)e_new;
    b[2 * victim + 1] = (u64)(e_new >> 64);
}

// A child as its side to move sees it: me = the pieces of the side to move.
struct Child {
    u32 me, opp, kings;
};

template <bool BLACK, bool KING>
static void capture_children(u32 from, u32 me, u32 opp, u32 kings, u32 empty, u32 sq, u32 captured, Child* out, int& k) {
    using S = Side<BLACK>;
    bool extended = false;
    auto dir = [&](auto dc) {
        constexpr int D = decltype(dc)::value;
        u32 mid = step<D>(sq) & opp & ~captured;
        if (!mid) return;
        u32 land = step<D>(mid) & empty;
        if (!land) return;
        extended = true;
        if (!KING && (land & S::CROWN)) {  // crowning ends the move
            u32 cap = captured | mid;
            out[k++] = {opp & ~cap, (me & ~from) | land, (kings & ~cap) | land};
            return;
        }
        capture_children<BLACK, KING>(from, me, opp, kings, empty, land, captured | mid, out, k);
    };
    dir(std::integral_constant<int, S::F0>{});
    dir(std::integral_constant<int, S::F1>{});
    if (KING) {
        dir(std::integral_constant<int, S::K0>{});
        dir(std::integral_constant<int, S::K1>{});
    }
    if (!extended) {
        u32 k2 = kings & ~captured;
        if (KING) k2 = (k2 & ~from) | sq;
        out[k++] = {opp & ~captured, (me & ~from) | sq, k2};
    }
}

template <bool BLACK> static int children(u32 me, u32 opp, u32 kings, Child* out) {
    using S = Side<BLACK>;
    u32 empty = ~(me | opp);
    int k = 0;
    u32 j = jumpers<BLACK>(me, opp, kings, empty);
    if (j) {
        while (j) {
            u32 s = j & (0u - j);
            j &= j - 1;
            if (s & kings) capture_children<BLACK, true>(s, me, opp, kings, empty | s, s, 0, out, k);
            else capture_children<BLACK, false>(s, me, opp, kings, empty | s, s, 0, out, k);
        }
        return k;
    }
    auto simple = [&](auto dc, u32 movers) {
        constexpr int D = decltype(dc)::value;
        u32 t = step<D>(movers) & empty;
        while (t) {
            u32 to = t & (0u - t);
            t &= t - 1;
            u32 from = step<3 - D>(to);
            u32 k2 = kings;
            if (kings & from) k2 ^= from | to;
            else if (to & S::CROWN) k2 |= to;
            out[k++] = {opp, me ^ (from | to), k2};
        }
    };
    simple(std::integral_constant<int, S::F0>{}, me);
    simple(std::integral_constant<int, S::F1>{}, me);
    u32 mk = me & kings;
    if (mk) {
        simple(std::integral_constant<int, S::K0>{}, mk);
        simple(std::integral_constant<int, S::K1>{}, mk);
    }
    return k;
}

template <bool BLACK> static u64 tabled(u32 me, u32 opp, u32 kings, int depth) {
    if (depth < 3) return perft<BLACK>(me, opp, kings, depth);
    u128 slot = slot_of<BLACK>(me, opp, kings);
    u64 n;
    g_probes.fetch_add(1, std::memory_order_relaxed);
    if (probe(slot, depth, n)) {
        g_hits.fetch_add(1, std::memory_order_relaxed);
        return n;
    }
    Child c[64];
    int k = children<BLACK>(me, opp, kings, c);
    n = 0;
    if (depth == 3) {
        for (int i = 0; i < k; i++) n += perft<!BLACK>(c[i].me, c[i].opp, c[i].kings, 2);
    } else {
        for (int i = 0; i < k; i++) __builtin_prefetch(bucket_of(slot_of<!BLACK>(c[i].me, c[i].opp, c[i].kings)));
        for (int i = 0; i < k; i++) n += tabled<!BLACK>(c[i].me, c[i].opp, c[i].kings, depth - 1);
    }
    store(slot, depth, n);
    return n;
}

int main(int argc, char** argv) {
    int depth = argc > 1 ? atoi(argv[1]) : 16;
    int threads = getenv("THREADS") ? atoi(getenv("THREADS")) : 1;
    u64 bytes = (u64)atoll(getenv("TABLE_MB") ? getenv("TABLE_MB") : "1024") << 20;
    if (depth < 5 || threads < 1 || bytes < 64) {
        fprintf(stderr, "usage: TABLE_MB=M THREADS=N perft-table DEPTH (DEPTH >= 5)\n");
        return 2;
    }
    g_index_bits = 63 - __builtin_clzll(bytes / 64);
    if (g_index_bits > KEY_BITS) g_index_bits = KEY_BITS;
    g_buckets = 1ull << g_index_bits;
    g_count_bits = 128 - DEPTH_BITS - (KEY_BITS - g_index_bits);
    if (g_count_bits > 64) g_count_bits = 64;
    g_tag_shift = DEPTH_BITS + g_count_bits;
    g_table = (u64*)mmap(nullptr, g_buckets * 64, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (g_table == MAP_FAILED) {
        fprintf(stderr, "cannot map %llu MiB\n", (unsigned long long)(bytes >> 20));
        return 1;
    }
    madvise(g_table, g_buckets * 64, MADV_HUGEPAGE);
    // Every path of four plies from the start (black to move again).
    std::vector<Child> work;
    Child a[64], b[64], c[64], d[64];
    int na = children<true>(0x00000FFFu, 0xFFF00000u, 0, a);
    for (int i = 0; i < na; i++)
        for (int nb = children<false>(a[i].me, a[i].opp, a[i].kings, b), j = 0; j < nb; j++)
            for (int nc = children<true>(b[j].me, b[j].opp, b[j].kings, c), l = 0; l < nc; l++)
                for (int nd = children<false>(c[l].me, c[l].opp, c[l].kings, d), q = 0; q < nd; q++) work.push_back(d[q]);
    std::atomic<size_t> next{0};
    std::atomic<u64> total{0};
    auto t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; t++)
        pool.emplace_back([&]() {
            u64 mine = 0;
            for (size_t i; (i = next.fetch_add(1)) < work.size();) mine += tabled<true>(work[i].me, work[i].opp, work[i].kings, depth - 4);
            total += mine;
        });
    for (auto& t : pool) t.join();
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    printf("%llu\nperft-table: perft %d, %.2f s wall, %d threads, %llu MiB, %llu probes, %.1f%% hits\n",
           (unsigned long long)total.load(), depth, s, threads, (unsigned long long)(g_buckets * 64 >> 20),
           (unsigned long long)g_probes.load(), 100.0 * g_hits.load() / g_probes.load());
    return 0;
}
