#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Fault replay at fleet scale (Documentation/replay.rst, step 3).

A seeded, deterministic discrete-event replay of a year of faults on a
fleet of MI300X nodes (8 GPUs, one XGMI hive each).  Faults arrive as a
Poisson process at a published rate and split by a published mix; each
policy's loss for a fault is taken from the loss table measured in the VM
(selftests/amdx_replay_test.c), never from here: a fault kind the table
lacks stops the replay.  Every policy sees the same faults (same seed).

Output: GPU-hours lost, jobs interrupted and the effective training time
ratio (ETTR) per policy, rate model, fleet size and job size, as JSON and
reST, and PNG plots (python3-matplotlib).
"""

import argparse
import bisect
import json
import math
import random
import sys

HOURS_PER_YEAR = 24 * 365
NODE_GPUS = 8  # an MI300X platform: 8 GPUs, one XGMI hive

# Llama 3 405B pre-training: 419 unexpected interruptions in 54 days on
# 16,384 H100 GPUs, by root cause.  Source: Llama Team, AI @ Meta, "The
# Llama 3 Herd of Models", arXiv:2407.21783 (2024), Table 5.  The causes
# listed sum to 403; "other" is the remaining 16 (chassis, IO board,
# dependency, CPU, system memory, power).
LLAMA3_INTERRUPTIONS = 419
LLAMA3_GPUS = 16384
LLAMA3_DAYS = 54
LLAMA3_MIX = {
    "faulty_gpu": 148,
    "gpu_hbm3": 72,
    "software_bug": 54,
    "network_switch_cable": 35,
    "host_maintenance": 32,
    "gpu_sram": 19,
    "gpu_system_processor": 17,
    "nic": 7,
    "nccl_watchdog": 7,
    "silent_data_corruption": 6,
    "gpu_thermal": 6,
    "other_host": 16,
}

# Meta's research clusters (RSC-1): mean time between failures of a job of
# 1,024 GPUs about 8 h, of 16,384 GPUs about 1.8 h.  Source: Kokolis et al.,
# "Revisiting Reliability in Large-Scale Machine Learning Research
# Clusters", arXiv:2410.21680 (2024).  Between and beyond the two ends the
# replay takes the power law through them (an extrapolation at 100k).
RSC_MTBF = ((1024, 8.0), (16384, 1.8))

# What each cause is to amdx: a fault kind measured in the VM, or "job":
# a cause outside the GPU and its driver (the job's own software, the
# scale-out network, a silent data corruption caught by the job's checks):
# it interrupts the job it hits and nothing else, under every policy.
# This mapping is the replay's assumption, stated in Documentation/replay.rst.
CAUSE_KIND = {
    "faulty_gpu": "device_ue",
    # Llama 3 counts interruptions and does not split its HBM3 errors into
    # those a job read and those retired unread: none is drawn as the
    # measured ue_not_consumed row.
    "gpu_hbm3": "poison_consumed",
    "software_bug": "job",
    "network_switch_cable": "job",
    "host_maintenance": "reset_failed",  # the node reboots
    "gpu_sram": "engine_ue",
    "gpu_system_processor": "firmware",
    "nic": "job",
    "nccl_watchdog": "job",
    "silent_data_corruption": "job",
    "gpu_thermal": "device_ue",
    "other_host": "reset_failed",
}

# Defaults of the costs, each with its source (issue 35's figures).
DEFAULTS = {
    # Checkpoint interval (issue 35: "e.g. 30 min").
    "checkpoint_h": 0.5,
    # A node reboot: about 30 minutes (issue 35, from the RSC study above).
    "node_reboot_h": 0.5,
    # Relaunching a job after an interruption: no published figure; 0
    # unless given (--relaunch-min).
    "relaunch_h": 0.0,
}

ACTION_NODE = 8  # AMDX_RECOVER_NODE
# Positions are counted in CPX partitions: 8 per GPU.
SLOTS = 8


class ReplayError(Exception):
    """An input the replay cannot use."""


def llama3_rate():
    """Interruptions per GPU-hour of the Llama 3 run (about 1.97e-5)."""
    return LLAMA3_INTERRUPTIONS / (LLAMA3_GPUS * LLAMA3_DAYS * 24.0)


def rsc_mtbf_h(gpus):
    """MTBF of a job of @gpus GPUs: the power law through RSC_MTBF."""
    (n0, m0), (n1, m1) = RSC_MTBF
    alpha = math.log(m0 / m1) / math.log(n1 / n0)
    return m0 * (gpus / n0) ** -alpha


def rsc_rate(gpus):
    """Failures per GPU-hour at a fleet (one job) of @gpus GPUs."""
    return 1.0 / (rsc_mtbf_h(gpus) * gpus)


RATE_MODELS = {
    "llama3": lambda gpus: llama3_rate(),
    "rsc": rsc_rate,
}


# Row fields that are times measured in the VM: reported, never used by
# the replay (it uses est_ms, the provider's figures) and free to differ
# between hives.
MEASURED_TIMES = ("run_ms",)


def load_table(rows):
    """The measured loss table: (policy, layout, fault) -> row.

    @rows: the "# REPLAY" rows of amdx_replay_test.c, as dicts.  Hives of
    one layout (make replay's four: two of each) each measure its faults:
    their rows must agree, and count once.  Only the time a run took
    (run_ms, under TCG, MEASURED_TIMES) may differ: the slowest is kept.
    """
    need = ("policy", "layout", "fault", "hive_devices",
            "partitions_per_device", "action", "processes_lost",
            "devices_reset", "partitions_reset", "est_ms",
            "data_lost_unreported")
    table = {}
    for r in rows:
        missing = [k for k in need if k not in r]
        if missing:
            raise ReplayError("loss row without %s: %r" % (missing, r))
        key = (r["policy"], r["layout"], r["fault"])
        if key in table:
            old = table[key]
            if {k: v for k, v in old.items() if k not in MEASURED_TIMES} != \
               {k: v for k, v in r.items() if k not in MEASURED_TIMES}:
                raise ReplayError("loss row measured twice, differently: %r"
                                  % (key,))
            if "run_ms" in r or "run_ms" in old:
                r = dict(r, run_ms=max(old.get("run_ms", 0),
                                       r.get("run_ms", 0)))
        table[key] = r
    return table


def read_table(path):
    """load_table() of a JSON list, or of "# REPLAY {...}" lines."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = text.strip()
    if text.startswith("["):
        return load_table(json.loads(text))
    rows = []
    for line in text.splitlines():
        i = line.find("# REPLAY ")
        if i >= 0:
            rows.append(json.loads(line[i + len("# REPLAY "):]))
    if not rows:
        raise ReplayError("%s: no measured loss rows" % path)
    return load_table(rows)


def footprint(row):
    """GPUs an event takes, from its measured row.

    node and rma take the node by their definition; a reset of the whole
    measured hive takes the node's hive (the measured hive may be smaller
    than a node's 8 devices: make check's fleet); anything less its
    devices, or its partitions (processes killed where no partition was
    reset), as they were measured.
    """
    if row["action"] >= ACTION_NODE:
        return float(NODE_GPUS)
    if row["devices_reset"] >= row["hive_devices"]:
        return float(NODE_GPUS)
    if row["devices_reset"]:
        return float(row["devices_reset"])
    parts = max(row["partitions_reset"], row["processes_lost"])
    return min(1.0, parts / row["partitions_per_device"])


def downtime_h(row, cost):
    """Hours before the hit job runs again: the measured estimate."""
    if row["action"] >= ACTION_NODE:
        return cost["node_reboot_h"]
    return row["est_ms"] / 3.6e6


def draw_events(gpus, rate, seed, hours=HOURS_PER_YEAR, mix=None):
    """The year's faults: sorted (time h, cause, gpu), deterministic."""
    mix = mix or LLAMA3_MIX
    rng = random.Random("%d/%d/%r" % (seed, gpus, rate))
    causes = sorted(mix)
    cum = []
    total = 0
    for c in causes:
        total += mix[c]
        cum.append(total)
    events = []
    t = 0.0
    lam = rate * gpus
    while True:
        t += rng.expovariate(lam)
        if t >= hours:
            return events
        cause = causes[bisect.bisect_right(cum, rng.randrange(total))]
        events.append((t, cause, rng.randrange(gpus)))


def replay(events, table, policy, layout, gpus, job_gpus, cost,
           hours=HOURS_PER_YEAR):
    """One policy over @events: GPU-hours lost, jobs interrupted, ETTR.

    Jobs of @job_gpus GPUs (1/8 for jobs of one CPX partition), packed
    in order; an event at GPU g takes the GPUs footprint() says,
    from g on (from its node's first GPU when it takes more than a GPU), and every job on them loses its work since its
    last checkpoint and waits for the recovery (downtime_h()), then
    relaunches (cost["relaunch_h"]).  The sources of each figure used are
    returned in "used".
    """
    # Positions in slots of 1/SLOTS GPU (a CPX partition), integers.
    job_slots = int(round(job_gpus * SLOTS))
    if job_slots < 1 or gpus * SLOTS % job_slots:
        raise ReplayError("jobs of %r GPUs do not tile %d GPUs" %
                          (job_gpus, gpus))
    njobs = gpus * SLOTS // job_slots
    start = [0.0] * njobs  # when each job last (re)started
    lost = 0.0
    interrupted = 0
    used = {}
    for t, cause, gpu in events:
        kind = CAUSE_KIND[cause]
        if kind == "job":
            width = 1  # the job on the fault's GPU, nothing else
            down = 0.0
        else:
            key = (policy, layout, kind)
            if key not in table:
                raise ReplayError("no measured loss for %s %s %s" % key)
            row = table[key]
            used[kind] = row
            width = int(math.ceil(footprint(row) * SLOTS))
            down = downtime_h(row, cost)
            if not width:
                continue  # nothing was lost: no job hit
        # Slots [lo, lo + width) are hit: from the fault's GPU, or from
        # its node's first GPU when more than a GPU goes.
        lo = gpu * SLOTS
        if width > SLOTS:
            lo -= lo % (NODE_GPUS * SLOTS)
        first = lo // job_slots
        last = (lo + width - 1) // job_slots
        for j in range(first, min(njobs, last + 1)):
            if start[j] > t:
                continue  # still down from an earlier hit
            since = t - start[j]
            work = since % cost["checkpoint_h"]
            lost += job_slots / SLOTS * (work + down + cost["relaunch_h"])
            start[j] = t + down + cost["relaunch_h"]
            interrupted += 1
    total = gpus * hours
    return {
        "gpu_hours_lost": lost,
        "jobs_interrupted": interrupted,
        "ettr": max(0.0, 1.0 - lost / total),
        "used": sorted(used),
    }


def run(table, fleets, job_sizes, seed, cost, layouts, policies):
    """Every rate model x fleet x job size x layout x policy."""
    out = []
    for model in sorted(RATE_MODELS):
        for gpus in fleets:
            rate = RATE_MODELS[model](gpus)
            events = draw_events(gpus, rate, seed)
            for job in job_sizes:
                job_gpus = gpus if job == "fleet" else float(job)
                for layout in layouts:
                    for policy in policies:
                        r = replay(events, table, policy, layout, gpus,
                                   job_gpus, cost)
                        r.update(model=model, gpus=gpus, rate=rate,
                                 events=len(events), job=str(job),
                                 layout=layout, policy=policy)
                        out.append(r)
    return out


def plot(results, table, outdir):
    """PNGs: GPU-hours lost vs fleet size; measured loss per fault kind."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths = []
    groups = sorted({(r["model"], r["job"], r["layout"]) for r in results})
    for model, job, layout in groups:
        fig, ax = plt.subplots(figsize=(6, 4))
        sel = [r for r in results if (r["model"], r["job"], r["layout"]) ==
               (model, job, layout)]
        for policy in sorted({r["policy"] for r in sel}):
            pts = sorted((r["gpus"], r["gpu_hours_lost"]) for r in sel
                         if r["policy"] == policy)
            ax.plot([p[0] for p in pts], [max(p[1], 1e-3) for p in pts],
                    marker="o", label=policy)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("GPUs")
        ax.set_ylabel("GPU-hours lost per year")
        ax.set_title("%s rate, jobs of %s GPUs, %s" % (model, job, layout))
        ax.legend()
        fig.tight_layout()
        name = "%s/replay-%s-%s-%s.png" % (outdir, model, job,
                                           layout.replace("/", "-"))
        fig.savefig(name, dpi=80)
        plt.close(fig)
        paths.append(name)
    layouts = sorted({k[1] for k in table})
    kinds = sorted({k[2] for k in table})
    policies = sorted({k[0] for k in table})
    for layout in layouts:
        fig, ax = plt.subplots(figsize=(7, 4))
        width = 0.8 / max(1, len(policies))
        for i, policy in enumerate(policies):
            ys = [table.get((policy, layout, k), {}).get("partitions_reset", 0)
                  for k in kinds]
            ax.bar([x + i * width for x in range(len(kinds))], ys, width,
                   label=policy)
        ax.set_xticks([x + width for x in range(len(kinds))])
        ax.set_xticklabels(kinds, rotation=45, ha="right")
        ax.set_ylabel("partitions reset (measured)")
        ax.set_title("loss per fault kind, %s" % layout)
        ax.legend()
        fig.tight_layout()
        name = "%s/loss-%s.png" % (outdir, layout.replace("/", "-"))
        fig.savefig(name, dpi=80)
        plt.close(fig)
        paths.append(name)
    return paths


def rst_table(head, rows):
    """A reST simple table."""
    widths = [max(len(row[i]) for row in [head] + rows)
              for i in range(len(head))]
    sep = "  ".join("=" * w for w in widths)
    lines = [sep, "  ".join(h.ljust(w) for h, w in zip(head, widths)), sep]
    for row in rows:
        lines.append("  ".join(c.ljust(w) for c, w in zip(row, widths))
                     .rstrip())
    lines.append(sep)
    return lines


ACTIONS = ("none", "process", "queue", "pipe", "partition", "vf", "device",
           "hive", "node", "rma")


def rst_loss(table):
    """The measured loss table in reST: every row the replay may use."""
    head = ("layout", "fault", "policy", "action", "procs lost",
            "data lost", "devices", "partitions", "est. ms", "run ms")
    rows = []
    for key in sorted(table, key=lambda k: (k[1], k[2], k[0])):
        r = table[key]
        rows.append((r["layout"], r["fault"], r["policy"],
                     ACTIONS[r["action"]] if r["action"] < len(ACTIONS)
                     else str(r["action"]),
                     "%d/%d" % (r["processes_lost"], r.get("workers", 0)),
                     str(r["data_lost_unreported"]), str(r["devices_reset"]),
                     str(r["partitions_reset"]), str(r["est_ms"]),
                     str(r["run_ms"]) if r.get("ran") and "run_ms" in r
                     else "-"))
    return "\n".join(rst_table(head, rows)) + "\n"


def rst(results, table, seed, cost):
    """The headline tables in reST."""
    lines = ["Seed %d; checkpoint %.2f h, node reboot %.2f h, relaunch "
             "%.2f h." % (seed, cost["checkpoint_h"], cost["node_reboot_h"],
                          cost["relaunch_h"]), ""]
    head = ("model", "GPUs", "job", "layout", "policy", "faults",
            "GPU-h lost", "jobs hit", "ETTR", "measured rows used")
    rows = []
    for r in results:
        rows.append((r["model"], str(r["gpus"]), r["job"], r["layout"],
                     r["policy"], str(r["events"]),
                     "%.0f" % r["gpu_hours_lost"], str(r["jobs_interrupted"]),
                     "%.6f" % r["ettr"], " ".join(r["used"]) or "-"))
    lines += rst_table(head, rows)
    return "\n".join(lines) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("table", help="measured loss table: JSON list or the "
                   "selftest's log with '# REPLAY' lines")
    p.add_argument("--seed", type=int, default=35)
    p.add_argument("--gpus", default="1024,16384,100000")
    p.add_argument("--jobs", default="fleet,8,1",
                   help="job sizes in GPUs, 'fleet' for one job")
    p.add_argument("--checkpoint-min", type=float,
                   default=DEFAULTS["checkpoint_h"] * 60)
    p.add_argument("--node-reboot-min", type=float,
                   default=DEFAULTS["node_reboot_h"] * 60)
    p.add_argument("--relaunch-min", type=float,
                   default=DEFAULTS["relaunch_h"] * 60)
    p.add_argument("--out", help="directory for report.json, report.rst "
                   "and the PNGs")
    a = p.parse_args(argv)
    cost = {"checkpoint_h": a.checkpoint_min / 60,
            "node_reboot_h": a.node_reboot_min / 60,
            "relaunch_h": a.relaunch_min / 60}
    try:
        table = read_table(a.table)
        layouts = sorted({k[1] for k in table})
        policies = sorted({k[0] for k in table})
        results = run(table, [int(g) for g in a.gpus.split(",")],
                      a.jobs.split(","), a.seed, cost, layouts, policies)
    except (OSError, ValueError, ReplayError) as e:
        print("amdx_replay: %s" % e, file=sys.stderr)
        return 1
    text = rst(results, table, a.seed, cost)
    sys.stdout.write(text)
    if a.out:
        with open("%s/report.json" % a.out, "w", encoding="utf-8") as f:
            json.dump({"seed": a.seed, "cost": cost,
                       "inputs": {"llama3_rate": llama3_rate(),
                                  "llama3_mix": LLAMA3_MIX,
                                  "rsc_mtbf": RSC_MTBF,
                                  "cause_kind": CAUSE_KIND},
                       "loss_table": sorted(table.values(),
                                            key=lambda r: (r["policy"],
                                                           r["layout"],
                                                           r["fault"])),
                       "results": results}, f, indent=1, sort_keys=True)
        with open("%s/report.rst" % a.out, "w", encoding="utf-8") as f:
            f.write(text)
        with open("%s/loss.rst" % a.out, "w", encoding="utf-8") as f:
            f.write(rst_loss(table))
        for path in plot(results, table, a.out):
            print("wrote %s" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
