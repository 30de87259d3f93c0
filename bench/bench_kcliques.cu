/* bench_kcliques.cu - k-clique counting (gpuclique.h, gclq_kcliques): every
   method on the data graphs and on R-MAT 16, 18, 20 and 22 (edge factor 16),
   for k = 3, 4, 5, 6, 8, 10 and every k at once, beside the published figures.

   Methods (KC_METHODS names): the CUDA backend's pivot, lftj, level-join,
   grouped and bitset, and the HOST backend's host-pivot and host-ordered.
   A HOST row runs in a child process that is killed past the time cap, so
   HOST rows appear where they finish within it. A CUDA method whose first
   call says GCLQ_ERROR_BACKEND_UNAVAILABLE (not in this build) is left out
   with one line saying so.

   The time of a row is stats.order_ms + stats.count_ms: from the
   device-resident graph, orientation included (the reference figures' time
   too); total is stats.total_ms (upload and listing included). A CUDA row
   under a second is the median of KC_REPS runs (default 3); a repeat that
   counts differently marks the row DIFFERS.

   Every row's counts are compared with the counts already known for the
   same (graph, k): those of ../shared/data/kcliques.tsv and of every row
   before it (PIVOT runs first on each graph, every k at once). "same": equal
   to them; "DIFFERS": not; "first": nothing known yet.

   References (issue 17; count time after reading and orienting the graph):
     ICS'22: Almasri et al., "Parallel K-Clique Counting on GPUs" (ICS
             2022), its code measured on an H200, the best of its
             orientation and pivoting modes;
     kClist: Danisch, Balalau, Sozio, "Listing k-cliques in Sparse Real-World
             Graphs" (WWW 2018), on the H200 host's 16 cores.
   The target is half the ICS'22 figure (and --all on ca-HepPh <= 100 ms).
   R-MAT rows of the references were measured on Graph500-parameter graphs
   of another generator: the same statistics, not the same edges.

   Time cap: a method stops on a graph (no larger k, no --all) once one of its
   rows took more than KC_CAP_S seconds (default 10), and a row is skipped
   when its time projected from the method's last row passes the cap: the
   last row's time per clique times the cliques of the next k where both
   counts are known (not for pivot, whose time hardly depends on k), else
   the growth per k of its last two rows continued. Only rows of at least
   10 ms project (faster ones are mostly launch overhead).

   Environment:
     GPUAMQ_DATA_DIR  the data directory (default ../shared/data); graphs not
                      found there are skipped with a line saying so
     KC_GRAPHS        comma list of graph names (MANN_a9, facebook_combined,
                      rmat16, ...; "data" or "rmat" for the groups; any
                      rmatS is generated); default every data graph and
                      rmat16,rmat18,rmat20,rmat22
     KC_K             comma list of k and "all" (default 3,4,5,6,8,10,all)
     KC_METHODS       comma list of method names (default all seven)
     KC_CAP_S         the time cap in seconds (default 10)
     KC_REPS          runs of a CUDA row under a second (default 3)
   R-MAT 22 runs under a device budget of 4 GiB (device_budget_bytes); the
   other graphs under the library's default (90% of the free memory).

   Lines for scripts (bench/plot_kcliques.py reads them):
     kc,graph,n,m,k,method,ran,backend,status,count,omega,time_ms,order_ms,
        total_ms,peak_mib,agree,ics_ms,ics_ratio,kclist_ms,kclist_ratio,
        target_ms,target,nodes,reps
       k: a number or "all"; ran: the method stats.method names; status: ok,
       timeout (HOST, killed at the cap) or failed; count: the k-cliques
       ("overflow" past 2^64; "-" for all); omega: for all; *_ratio:
       reference ms / time_ms (above 1: faster than the reference); target:
       met, missed or "-"; "-" wherever a value does not apply.
     kc-all,graph,method,omega,COUNT3 COUNT4 ... COUNTomega
     kc-note,graph,k,method,NOTES   (stats.notes; LEVEL_JOIN's "level sizes:")
     kc-fail,graph,k,method,STATUS
     kc-skip,graph,k,method,REASON
     kc-graph,graph,n,m,budget_mib,source
     kc-target,graph,k,source,ref_ms,target_ms,best_method,best_ms,met|missed|not run
     kc-summary,...
   and the shared table's rows (primitive "kcliques", baseline ICS'22 or
   kClist where the issue gives a figure). */
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "../gpuclique.h" /* the public API only: the implementation is examples/impl.cu, linked in */
#include "bench.h"

/* ---- the reference figures (issue 17) ---------------------------------- */

struct kc_ref {
  const char *graph;
  uint32_t k;         /* 0: every k (--all) */
  const char *source; /* "ICS'22" or "kClist" */
  double ms;          /* the published figure; 0: a target alone */
  double target_ms;   /* the issue's target; 0: none */
};
static const char kc_ics[] = "ICS'22", kc_kclist[] = "kClist";
static const kc_ref kc_refs[] = {
    {"ca-CondMat", 4, kc_ics, 3.4, 1.7},          {"ca-CondMat", 8, kc_ics, 46.0, 23.0},
    {"email-Enron", 4, kc_ics, 6.9, 3.45},        {"email-Enron", 8, kc_ics, 53.0, 26.5},
    {"facebook_combined", 4, kc_ics, 7.0, 3.5},   {"facebook_combined", 6, kc_ics, 614.0, 307.0},
    {"ca-HepPh", 4, kc_ics, 16.0, 8.0},           {"ca-HepPh", 6, kc_ics, 71.0, 35.5},
    {"ca-HepPh", 8, kc_ics, 72.0, 36.0},          {"ca-HepPh", 0, kc_ics, 0.0, 100.0},
    {"rmat16", 4, kc_ics, 21.0, 10.5},            {"rmat16", 6, kc_ics, 1368.0, 684.0},
    {"rmat18", 3, kc_ics, 43.0, 21.5},            {"rmat18", 4, kc_ics, 44.0, 22.0},
    {"rmat16", 4, kc_kclist, 431.0, 0.0},         {"rmat16", 6, kc_kclist, 11700.0, 0.0},
    {"rmat18", 4, kc_kclist, 2700.0, 0.0},
};

/* The reference row of (graph, k) from source, or NULL. */
static const kc_ref *kc_find_ref(const std::string &graph, uint32_t k, const char *source) {
  for (const kc_ref &r : kc_refs)
    if (graph == r.graph && k == r.k && r.source == source) return &r;
  return NULL;
}

/* ---- methods, options, one call ----------------------------------------- */

struct kc_method {
  const char *name;
  gclq_backend backend;
  gclq_kclique_method method;
};
/* PIVOT first: its every-k row makes the counts known for the others' checks
   and projections. */
static const kc_method kc_methods[] = {
    {"pivot", GCLQ_BACKEND_CUDA, GCLQ_KCLIQUE_PIVOT},
    {"lftj", GCLQ_BACKEND_CUDA, GCLQ_KCLIQUE_LFTJ},
    {"level-join", GCLQ_BACKEND_CUDA, GCLQ_KCLIQUE_LEVEL_JOIN},
    {"grouped", GCLQ_BACKEND_CUDA, GCLQ_KCLIQUE_GROUPED},
    {"bitset", GCLQ_BACKEND_CUDA, GCLQ_KCLIQUE_BITSET},
    {"host-pivot", GCLQ_BACKEND_HOST, GCLQ_KCLIQUE_PIVOT},
    {"host-ordered", GCLQ_BACKEND_HOST, GCLQ_KCLIQUE_ORDERED},
};

/* Rows under this many ms do not project (launch overhead dominates them). */
static const double kc_project_min_ms = 10.0;

/* One gclq_kcliques call's outcome. counts[i] is k_first + i's count,
   UINT64_MAX where it overflowed. */
struct kc_outcome {
  gclq_status st;
  bool timed_out;
  double wall_ms;
  uint32_t k_first, omega;
  std::vector<uint64_t> counts;
  gclq_kclique_stats stats;
  double time_ms(void) const { return stats.order_ms + stats.count_ms; }
};

static double kc_ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/* The options of a row: k (0: every k), under budget bytes (0: default). */
static gclq_kclique_options kc_options(const kc_method &m, uint32_t k, size_t budget) {
  gclq_kclique_options o;
  gclq_kclique_options_defaults(&o);
  o.backend = m.backend;
  o.method = m.method;
  o.all = k == 0;
  o.k = k == 0 ? 3 : k;
  o.device_budget_bytes = budget;
  return o;
}

/* One call in this process. */
static kc_outcome kc_call(const gclq_graph *g, const kc_method &m, uint32_t k, size_t budget) {
  gclq_kclique_options o = kc_options(m, k, budget);
  gclq_kclique_result r;
  kc_outcome out;
  auto t0 = std::chrono::steady_clock::now();
  out.st = gclq_kcliques(g, &o, &r);
  out.wall_ms = kc_ms_since(t0);
  out.timed_out = false;
  out.k_first = r.k_first;
  out.omega = r.omega;
  out.counts.assign(r.h_counts, r.h_counts + r.num_k);
  out.stats = r.stats;
  gclq_kclique_result_free(&r);
  return out;
}

/* write(2) all of len bytes; false on failure. */
static bool kc_write_all(int fd, const void *p, size_t len) {
  const char *c = (const char *)p;
  while (len > 0) {
    ssize_t w = write(fd, c, len);
    if (w <= 0) return false;
    c += w;
    len -= (size_t)w;
  }
  return true;
}

/* The child's side of kc_call_forked: one HOST call, its outcome as bytes. */
static void kc_child(int fd, const gclq_graph *g, const kc_method &m, uint32_t k) {
  kc_outcome r = kc_call(g, m, k, 0);
  uint32_t head[4] = {(uint32_t)r.st, r.k_first, r.omega, (uint32_t)r.counts.size()};
  bool ok = kc_write_all(fd, head, sizeof head) && kc_write_all(fd, &r.stats, sizeof r.stats) &&
            kc_write_all(fd, r.counts.data(), r.counts.size() * sizeof(uint64_t));
  close(fd);
  _exit(ok ? 0 : 1);
}

/* One HOST call in a child process, killed after cap_ms: the library has no
   way to stop a count, and a HOST row may take hours. */
static kc_outcome kc_call_forked(const gclq_graph *g, const kc_method &m, uint32_t k, double cap_ms) {
  kc_outcome out;
  memset(&out.stats, 0, sizeof out.stats);
  out.st = GCLQ_ERROR_INVALID_ARGUMENT;
  out.timed_out = false;
  out.k_first = out.omega = 0;
  int fds[2];
  fflush(stdout);
  if (pipe(fds) != 0) return out;
  auto t0 = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]), close(fds[1]);
    return out;
  }
  if (pid == 0) {
    close(fds[0]);
    kc_child(fds[1], g, m, k);
  }
  close(fds[1]);
  std::string bytes;
  char buf[1 << 16];
  for (;;) {
    double left = cap_ms - kc_ms_since(t0);
    if (left <= 0) {
      out.timed_out = true;
      break;
    }
    struct pollfd p = {fds[0], POLLIN, 0};
    int ready = poll(&p, 1, (int)left + 1);
    if (ready < 0) break;
    if (ready == 0) continue; /* the deadline check above ends it */
    ssize_t got = read(fds[0], buf, sizeof buf);
    if (got <= 0) break; /* EOF: the child is done */
    bytes.append(buf, (size_t)got);
  }
  if (out.timed_out) kill(pid, SIGKILL);
  close(fds[0]);
  waitpid(pid, NULL, 0);
  out.wall_ms = kc_ms_since(t0);
  uint32_t head[4];
  if (out.timed_out || bytes.size() < sizeof head + sizeof out.stats) return out;
  memcpy(head, bytes.data(), sizeof head);
  if (bytes.size() != sizeof head + sizeof out.stats + (size_t)head[3] * sizeof(uint64_t)) return out;
  out.st = (gclq_status)head[0];
  out.k_first = head[1];
  out.omega = head[2];
  memcpy(&out.stats, bytes.data() + sizeof head, sizeof out.stats);
  out.counts.resize(head[3]);
  memcpy(out.counts.data(), bytes.data() + sizeof head + sizeof out.stats, (size_t)head[3] * sizeof(uint64_t));
  return out;
}

/* ---- what is known about a graph, and a method's series on it ------------ */

struct kc_graph_state {
  std::string name;
  const gclq_graph *g;
  size_t budget;
  std::map<uint32_t, uint64_t> known;         /* k -> count (UINT64_MAX: overflow) */
  std::map<uint32_t, std::string> known_from; /* k -> the row (or file) it came from */
  uint32_t omega;                             /* 0: not known */
};

struct kc_series {
  bool stopped;
  std::string why;
  int rows;
  uint32_t k[2];   /* the last two rows (k[1] the last; 0 = every k) */
  double ms[2];
  uint64_t count[2];
};

static std::string kc_count_str(uint64_t c) {
  return c == UINT64_MAX ? std::string("overflow") : std::to_string((unsigned long long)c);
}
static std::string kc_k_str(uint32_t k) { return k == 0 ? std::string("all") : std::to_string(k); }

/* The cliques counted by every k from 3 to omega (UINT64_MAX when one
   overflowed or is unknown), for projecting --all. */
static uint64_t kc_all_cliques(const kc_graph_state &gs) {
  uint64_t total = 0;
  if (gs.omega == 0) return UINT64_MAX;
  for (uint32_t s = 3; s <= gs.omega; ++s) {
    auto it = gs.known.find(s);
    if (it == gs.known.end() || it->second == UINT64_MAX || total + it->second < total) return UINT64_MAX;
    total += it->second;
  }
  return total;
}

/* The projected time of the series' next row (k, 0 = every k); 0 when
   nothing projects (see the opening comment). */
static double kc_projected_ms(const kc_series &s, const kc_graph_state &gs, const kc_method &m, uint32_t k) {
  if (s.rows == 0 || s.ms[1] < kc_project_min_ms) return 0.0;
  const bool pivot = m.method == GCLQ_KCLIQUE_PIVOT;
  if (pivot && k == 0) return s.ms[1];
  if (!pivot && s.count[1] > 0 && s.count[1] != UINT64_MAX) {
    uint64_t next = UINT64_MAX;
    bool known = k == 0 ? gs.omega != 0 : gs.known.count(k) != 0;
    if (known) next = k == 0 ? kc_all_cliques(gs) : gs.known.at(k);
    if (known && next == UINT64_MAX) return INFINITY; /* past 2^64 cliques, one at a time */
    if (known) return s.ms[1] * fmax(1.0, (double)next / (double)s.count[1]);
  }
  const uint32_t kn = k == 0 ? gs.omega : k;
  if (s.rows < 2 || kn == 0 || s.k[0] == 0 || s.k[1] == 0 || s.k[1] <= s.k[0] || kn <= s.k[1]) return 0.0;
  const double rate = pow(fmax(1.0, s.ms[1] / fmax(s.ms[0], 1e-3)), 1.0 / (double)(s.k[1] - s.k[0]));
  return s.ms[1] * pow(rate, (double)(kn - s.k[1]));
}

/* Compare a row's counts with what is known, then add what was not:
   "same", "DIFFERS" (printing what differs) or "first". */
static const char *kc_agree(kc_graph_state &gs, const kc_method &m, uint32_t k, const kc_outcome &r) {
  int compared = 0, differs = 0;
  const std::string from = std::string(m.name) + " k=" + kc_k_str(k);
  for (size_t i = 0; i < r.counts.size(); ++i) {
    const uint32_t s = r.k_first + (uint32_t)i;
    if (gs.known.count(s) == 0 && gs.omega != 0 && s > gs.omega) { /* above omega: none */
      gs.known[s] = 0;
      gs.known_from[s] = "omega " + std::to_string(gs.omega);
    }
    auto it = gs.known.find(s);
    if (it == gs.known.end()) {
      gs.known[s] = r.counts[i];
      gs.known_from[s] = from;
      continue;
    }
    ++compared;
    if (it->second != r.counts[i]) {
      ++differs;
      printf("kc-differs,%s,%u,%s,%s,%s has %s\n", gs.name.c_str(), s, from.c_str(), kc_count_str(r.counts[i]).c_str(),
             gs.known_from[s].c_str(), kc_count_str(it->second).c_str());
    }
  }
  if (k == 0 && r.omega != 0) {
    if (gs.omega != 0 && gs.omega != r.omega) {
      ++differs;
      printf("kc-differs,%s,omega,%s,%u,known %u\n", gs.name.c_str(), from.c_str(), r.omega, gs.omega);
    }
    if (gs.omega == 0) gs.omega = r.omega;
  }
  return differs ? "DIFFERS" : compared ? "same" : "first";
}

/* ---- the rows ------------------------------------------------------------- */

struct kc_totals {
  int rows, same, differs, first, timeouts, failed, skipped;
  std::map<std::string, std::pair<std::string, double>> best; /* "graph|k" -> fastest CUDA row */
};
static kc_totals kc_sum;

/* ref_ms / ms as text, or "-". */
static std::string kc_ratio(const kc_ref *ref, double ms) {
  char b[32];
  if (ref == NULL || ref->ms <= 0 || ms <= 0) return "-";
  snprintf(b, sizeof b, "%.2f", ref->ms / ms);
  return b;
}
static std::string kc_ms_str(double ms) {
  char b[32];
  snprintf(b, sizeof b, "%.3f", ms);
  return b;
}

/* Print the row's lines and add it to the shared table. */
static void kc_print_row(const kc_graph_state &gs, const kc_method &m, uint32_t k, const kc_outcome &r,
                         const char *agree, int reps) {
  const gclq_graph *g = gs.g;
  const bool ok = !r.timed_out && r.st == GCLQ_SUCCESS;
  const kc_ref *ics = kc_find_ref(gs.name, k, kc_ics), *kcl = kc_find_ref(gs.name, k, kc_kclist);
  const double t = r.time_ms();
  std::string count = "-", omega = "-", target = "-";
  if (ok && k != 0) count = r.counts.empty() ? "0" : kc_count_str(r.counts[0]);
  if (ok && k == 0) omega = std::to_string(r.omega);
  if (ok && ics != NULL && ics->target_ms > 0) target = t <= ics->target_ms ? "met" : "missed";
  printf("kc,%s,%u,%llu,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%.2f,%s,%s,%s,%s,%s,%s,%s,%llu,%d\n", gs.name.c_str(),
         g->num_vertices, (unsigned long long)g->num_edges, kc_k_str(k).c_str(), m.name,
         ok ? gclq_kclique_method_name(r.stats.method) : "-", gclq_backend_name(m.backend),
         r.timed_out ? "timeout" : ok ? "ok" : "failed", count.c_str(), omega.c_str(),
         ok ? kc_ms_str(t).c_str() : "-", ok ? kc_ms_str(r.stats.order_ms).c_str() : "-",
         ok ? kc_ms_str(r.stats.total_ms).c_str() : "-", (double)r.stats.peak_device_bytes / 1048576.0,
         ok ? agree : "-", ics && ics->ms > 0 ? kc_ms_str(ics->ms).c_str() : "-", kc_ratio(ics, t).c_str(),
         kcl ? kc_ms_str(kcl->ms).c_str() : "-", kc_ratio(kcl, t).c_str(),
         ics && ics->target_ms > 0 ? kc_ms_str(ics->target_ms).c_str() : "-", target.c_str(),
         (unsigned long long)r.stats.nodes, reps);
  if (ok && k == 0) {
    printf("kc-all,%s,%s,%u,", gs.name.c_str(), m.name, r.omega);
    for (size_t i = 0; i < r.counts.size(); ++i) printf("%s%s", i ? " " : "", kc_count_str(r.counts[i]).c_str());
    printf("\n");
  }
  if (ok && r.stats.notes[0])
    printf("kc-note,%s,%s,%s,%s\n", gs.name.c_str(), kc_k_str(k).c_str(), m.name, r.stats.notes);
  if (!ok && !r.timed_out)
    printf("kc-fail,%s,%s,%s,%s\n", gs.name.c_str(), kc_k_str(k).c_str(), m.name, gclq_status_string(r.st));
  fflush(stdout);
  if (!ok) return;
  char variant[96];
  snprintf(variant, sizeof variant, "%s k=%s %s", gs.name.c_str(), kc_k_str(k).c_str(), m.name);
  const kc_ref *base = ics && ics->ms > 0 ? ics : kcl;
  bench_report_vs("kcliques", variant, (size_t)g->num_edges, t, base ? base->source : "-", base ? base->ms : -1.0,
                  0.0);
}

/* A CUDA row: one run, or the median (by time) of reps when under a second;
   *consistent is false when the runs' counts differ. */
static kc_outcome kc_cuda_row(const kc_graph_state &gs, const kc_method &m, uint32_t k, int reps, bool *consistent) {
  std::vector<kc_outcome> runs(1, kc_call(gs.g, m, k, gs.budget));
  *consistent = true;
  if (runs[0].st != GCLQ_SUCCESS || runs[0].wall_ms >= 1000.0) return runs[0];
  for (int i = 1; i < reps; ++i) {
    runs.push_back(kc_call(gs.g, m, k, gs.budget));
    if (runs.back().st != GCLQ_SUCCESS || runs.back().counts != runs[0].counts || runs.back().omega != runs[0].omega)
      *consistent = false;
  }
  if (!*consistent) return runs[0];
  std::sort(runs.begin(), runs.end(),
            [](const kc_outcome &a, const kc_outcome &b) { return a.time_ms() < b.time_ms(); });
  return runs[runs.size() / 2];
}

/* One row of method m at k (0: every k) on the graph, unless its series
   stopped or its projection passes the cap; updates the series. */
static void kc_row(kc_graph_state &gs, const kc_method &m, uint32_t k, kc_series &s, double cap_ms, int reps) {
  const std::string ks = kc_k_str(k);
  if (s.stopped) {
    printf("kc-skip,%s,%s,%s,%s\n", gs.name.c_str(), ks.c_str(), m.name, s.why.c_str());
    ++kc_sum.skipped;
    return;
  }
  const double proj = kc_projected_ms(s, gs, m, k);
  if (proj > cap_ms) {
    printf("kc-skip,%s,%s,%s,projected %.3g s > cap %.3g s\n", gs.name.c_str(), ks.c_str(), m.name, proj / 1e3,
           cap_ms / 1e3);
    ++kc_sum.skipped;
    return;
  }
  bool consistent = true;
  kc_outcome r = m.backend == GCLQ_BACKEND_HOST ? kc_call_forked(gs.g, m, k, cap_ms)
                                                : kc_cuda_row(gs, m, k, reps, &consistent);
  const bool ok = !r.timed_out && r.st == GCLQ_SUCCESS;
  const char *agree = ok ? kc_agree(gs, m, k, r) : "-";
  if (ok && !consistent) {
    agree = "DIFFERS";
    printf("kc-differs,%s,%s,%s,a repeated run failed or counted differently\n", gs.name.c_str(), ks.c_str(), m.name);
  }
  kc_print_row(gs, m, k, r, agree, m.backend == GCLQ_BACKEND_HOST || r.wall_ms >= 1000.0 ? 1 : reps);
  ++kc_sum.rows;
  kc_sum.timeouts += r.timed_out;
  kc_sum.failed += !ok && !r.timed_out;
  if (ok) {
    kc_sum.same += strcmp(agree, "same") == 0;
    kc_sum.differs += strcmp(agree, "DIFFERS") == 0;
    kc_sum.first += strcmp(agree, "first") == 0;
    const std::string key = gs.name + "|" + ks;
    auto it = kc_sum.best.find(key);
    if (m.backend == GCLQ_BACKEND_CUDA && (it == kc_sum.best.end() || r.time_ms() < it->second.second))
      kc_sum.best[key] = std::make_pair(std::string(m.name), r.time_ms());
  }
  if (!ok || r.wall_ms > cap_ms) {
    s.stopped = true;
    s.why = r.timed_out ? "an earlier row timed out"
            : !ok       ? "an earlier row failed"
                        : "an earlier row took more than the cap";
  }
  if (ok) {
    s.k[0] = s.k[1], s.ms[0] = s.ms[1], s.count[0] = s.count[1];
    s.k[1] = k, s.ms[1] = r.time_ms();
    s.count[1] = k != 0 && !r.counts.empty() ? r.counts[0] : kc_all_cliques(gs);
    ++s.rows;
  }
}

/* ---- parsing the environment ------------------------------------------------ */

static bool kc_has(const std::vector<std::string> &v, const std::string &x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

/* Whether KC_GRAPHS selects the graph (group "data" or "rmat"). */
static bool kc_selected(const std::vector<std::string> &graphs, const std::string &name, bool rmat) {
  return graphs.empty() || kc_has(graphs, name) || kc_has(graphs, rmat ? "rmat" : "data");
}

/* kcliques.tsv's counts of graph into gs.known. */
static void kc_load_tsv(const std::string &path, kc_graph_state &gs) {
  FILE *f = fopen(path.c_str(), "r");
  char line[512], name[256];
  unsigned k;
  unsigned long long c;
  if (f == NULL) return;
  while (fgets(line, sizeof line, f))
    if (line[0] != '#' && sscanf(line, "%255s %u %llu", name, &k, &c) == 3 && gs.name == name) {
      gs.known[k] = c;
      gs.known_from[k] = "kcliques.tsv";
    }
  fclose(f);
}

/* Every selected method and k on one graph. */
static void kc_graph(kc_graph_state &gs, const std::vector<const kc_method *> &methods, const std::vector<uint32_t> &ks,
                     double cap_ms, int reps) {
  printf("kc-graph,%s,%u,%llu,%.0f,%s\n", gs.name.c_str(), gs.g->num_vertices, (unsigned long long)gs.g->num_edges,
         (double)gs.budget / 1048576.0, gs.known.empty() ? "-" : "kcliques.tsv");
  fflush(stdout);
  for (const kc_method *m : methods) {
    kc_series s = kc_series();
    std::vector<uint32_t> order(ks);
    if (m->method == GCLQ_KCLIQUE_PIVOT) /* every k first: the counts for the rest */
      std::stable_sort(order.begin(), order.end(), [](uint32_t a, uint32_t b) { return a == 0 && b != 0; });
    for (uint32_t k : order) kc_row(gs, *m, k, s, cap_ms, reps);
  }
}

/* The CUDA methods this build counts with: a first call of each on a small
   graph (which also loads its kernels); the others are left out, saying so. */
static std::vector<const kc_method *> kc_usable(const std::vector<std::string> &names) {
  std::vector<const kc_method *> out;
  gclq_graph g;
  bool have_g = gclq_graph_rmat(8, 16, 1, &g) == GCLQ_SUCCESS;
  for (const kc_method &m : kc_methods) {
    if (!names.empty() && !kc_has(names, m.name)) continue;
    if (m.backend == GCLQ_BACKEND_CUDA && have_g) {
      gclq_status st = GCLQ_SUCCESS;
      for (uint32_t k : {3u, 4u, 5u, 0u})
        if (st == GCLQ_SUCCESS) st = kc_call(&g, m, k, 0).st;
      if (st != GCLQ_SUCCESS) {
        printf("kc-skip,*,*,%s,%s\n", m.name, gclq_status_string(st));
        continue;
      }
    }
    out.push_back(&m);
  }
  if (have_g) gclq_graph_free(&g);
  for (const std::string &n : names) {
    bool known = false;
    for (const kc_method &m : kc_methods) known = known || n == m.name;
    if (!known) printf("kc-skip,*,*,%s,no such method (KC_METHODS)\n", n.c_str());
  }
  return out;
}

/* The fastest CUDA row of each reference row, against the target. */
static void kc_print_targets(void) {
  for (const kc_ref &r : kc_refs) {
    if (r.target_ms <= 0) continue;
    auto it = kc_sum.best.find(std::string(r.graph) + "|" + kc_k_str(r.k));
    const bool ran = it != kc_sum.best.end();
    printf("kc-target,%s,%s,%s,%s,%s,%s,%s,%s\n", r.graph, kc_k_str(r.k).c_str(), r.source,
           r.ms > 0 ? kc_ms_str(r.ms).c_str() : "-", kc_ms_str(r.target_ms).c_str(),
           ran ? it->second.first.c_str() : "-", ran ? kc_ms_str(it->second.second).c_str() : "-",
           !ran ? "not run" : it->second.second <= r.target_ms ? "met" : "missed");
  }
}

BENCH(kcliques) {
  const char *dir = getenv("GPUAMQ_DATA_DIR") ? getenv("GPUAMQ_DATA_DIR") : "../shared/data";
  const double cap_ms = 1000.0 * (getenv("KC_CAP_S") ? atof(getenv("KC_CAP_S")) : 10.0);
  const int reps = getenv("KC_REPS") ? std::max(1, atoi(getenv("KC_REPS"))) : 3;
  const std::vector<std::string> graphs = bench_env_list("KC_GRAPHS", "");
  std::vector<uint32_t> ks;
  for (const std::string &k : bench_env_list("KC_K", "3,4,5,6,8,10,all")) {
    if (k == "all") ks.push_back(0);
    else if (atoi(k.c_str()) >= 3) ks.push_back((uint32_t)atoi(k.c_str()));
    else printf("kc-skip,*,%s,*,not a k (KC_K: numbers >= 3 and all)\n", k.c_str());
  }
  const std::vector<const kc_method *> methods = kc_usable(bench_env_list("KC_METHODS", ""));
  printf("kc-config,cap %.3g s,reps %d,data %s\n", cap_ms / 1e3, reps, dir);
  kc_sum = kc_totals();
  const char *files[] = {"dimacs/MANN_a9.clq",     "dimacs/brock200_2.clq",   "dimacs/brock200_4.clq",
                         "dimacs/c-fat200-1.clq",  "dimacs/c-fat500-10.clq",  "dimacs/hamming6-2.clq",
                         "dimacs/hamming6-4.clq",  "dimacs/johnson8-2-4.clq", "dimacs/johnson8-4-4.clq",
                         "dimacs/p_hat300-1.clq",  "dimacs/san200_0.7_1.clq", "dimacs/sanr200_0.7.clq",
                         "snap/ca-GrQc.txt",       "snap/ca-HepTh.txt",       "snap/facebook_combined.txt",
                         "snap/ca-CondMat.txt",    "snap/email-Enron.txt",    "snap/ca-HepPh.txt"};
  for (const char *f : files) {
    std::string name = strrchr(f, '/') + 1;
    name = name.substr(0, name.rfind('.'));
    if (!kc_selected(graphs, name, false)) continue;
    const std::string path = std::string(dir) + "/" + f;
    gclq_graph g;
    if (gclq_graph_load(path.c_str(), GCLQ_FORMAT_AUTO, &g, NULL) != GCLQ_SUCCESS) {
      printf("kc-skip,%s,*,*,not found or unreadable: %s%s\n", name.c_str(), path.c_str(),
             kc_find_ref(name, 4, kc_ics) ? " (its reference rows are not measured; set GPUAMQ_DATA_DIR)" : "");
      continue;
    }
    kc_graph_state gs;
    gs.name = name, gs.g = &g, gs.budget = 0, gs.omega = 0;
    kc_load_tsv(std::string(dir) + "/kcliques.tsv", gs);
    kc_graph(gs, methods, ks, cap_ms, reps);
    gclq_graph_free(&g);
  }
  std::vector<int> scales = {16, 18, 20, 22};
  for (const std::string &n : graphs) /* other scales named in KC_GRAPHS */
    if (n.compare(0, 4, "rmat") == 0 && n.size() > 4 &&
        std::find(scales.begin(), scales.end(), atoi(n.c_str() + 4)) == scales.end())
      scales.push_back(atoi(n.c_str() + 4));
  for (int s : scales) {
    const std::string name = "rmat" + std::to_string(s);
    if (s < 1 || s > 30 || !kc_selected(graphs, name, true)) continue;
    gclq_graph g;
    if (gclq_graph_rmat(s, 16, 1, &g) != GCLQ_SUCCESS) {
      printf("kc-skip,%s,*,*,cannot generate\n", name.c_str());
      continue;
    }
    kc_graph_state gs;
    gs.name = name, gs.g = &g, gs.omega = 0;
    gs.budget = s >= 22 ? (size_t)4 << 30 : 0; /* issue 17: R-MAT 22 inside 4 GiB */
    kc_graph(gs, methods, ks, cap_ms, reps);
    gclq_graph_free(&g);
  }
  kc_print_targets();
  printf("kc-summary,rows %d,same %d,DIFFERS %d,first %d,timeouts %d,failed %d,skipped %d\n", kc_sum.rows,
         kc_sum.same, kc_sum.differs, kc_sum.first, kc_sum.timeouts, kc_sum.failed, kc_sum.skipped);
  fflush(stdout);
}
