#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Host tests of amdx_replay.py: its inputs, determinism and arithmetic.

The loss rows here are test data made up to check the arithmetic by
hand; the replay itself only ever reads the table the VM measured.
"""

import importlib.util
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import amdx_replay as R  # noqa: E402


def row(policy, layout, fault, action, devices=0, parts=0, procs=0,
        est_ms=0, hive=8, ppd=1):
    return {"policy": policy, "layout": layout, "fault": fault,
            "hive_devices": hive, "partitions_per_device": ppd,
            "action": action, "processes_lost": procs,
            "devices_reset": devices, "partitions_reset": parts,
            "est_ms": est_ms, "data_lost_unreported": 0}


COST = {"checkpoint_h": 0.5, "node_reboot_h": 0.5, "relaunch_h": 0.0}


class Inputs(unittest.TestCase):
    def test_llama3_rate_is_the_published_one(self):
        self.assertAlmostEqual(R.llama3_rate(), 1.97e-5, delta=0.005e-5)
        self.assertEqual(sum(R.LLAMA3_MIX.values()), R.LLAMA3_INTERRUPTIONS)

    def test_rsc_curve_goes_through_both_ends(self):
        self.assertAlmostEqual(R.rsc_mtbf_h(1024), 8.0)
        self.assertAlmostEqual(R.rsc_mtbf_h(16384), 1.8)
        self.assertLess(R.rsc_mtbf_h(100000), 1.8)
        self.assertGreater(R.rsc_rate(1024), R.rsc_rate(16384))

    def test_every_cause_has_a_kind(self):
        self.assertEqual(set(R.CAUSE_KIND), set(R.LLAMA3_MIX))


class Draw(unittest.TestCase):
    def test_same_seed_same_faults(self):
        a = R.draw_events(1024, 1e-4, 7)
        self.assertEqual(a, R.draw_events(1024, 1e-4, 7))
        self.assertNotEqual(a, R.draw_events(1024, 1e-4, 8))

    def test_count_and_mix_follow_the_rate(self):
        ev = R.draw_events(16384, R.llama3_rate(), 35)
        want = R.llama3_rate() * 16384 * R.HOURS_PER_YEAR
        # Poisson: within 5 standard deviations
        self.assertLess(abs(len(ev) - want), 5 * want ** 0.5)
        gpu = sum(1 for e in ev if e[1] == "faulty_gpu")
        share = R.LLAMA3_MIX["faulty_gpu"] / R.LLAMA3_INTERRUPTIONS
        self.assertLess(abs(gpu - share * len(ev)),
                        5 * (share * len(ev)) ** 0.5)
        self.assertEqual(ev, sorted(ev))
        self.assertTrue(all(0 <= e[2] < 16384 for e in ev))


class Arithmetic(unittest.TestCase):
    def setUp(self):
        self.table = R.load_table([
            # one device of a hive of 8, 1 h to recover
            row("a", "SPX/NPS1", "device_ue", 6, devices=1, parts=1,
                procs=1, est_ms=3600000),
            # the whole hive
            row("b", "SPX/NPS1", "device_ue", 7, devices=8, parts=8,
                procs=8, est_ms=3600000),
            row("a", "SPX/NPS1", "reset_failed", 8, devices=8, parts=8),
            row("a", "CPX/NPS4", "engine_ue", 4, parts=1, procs=1,
                est_ms=360000, ppd=8),
            row("a", "SPX/NPS1", "page_ce", 0),
        ])
        self.ev = [(1.25, "faulty_gpu", 9)]

    def test_one_device_one_job(self):
        r = R.replay(self.ev, self.table, "a", "SPX/NPS1", 16, 1, COST)
        # 0.25 h since the last checkpoint + 1 h recovery, on 1 GPU
        self.assertAlmostEqual(r["gpu_hours_lost"], 1.25)
        self.assertEqual(r["jobs_interrupted"], 1)
        self.assertEqual(r["used"], ["device_ue"])
        self.assertAlmostEqual(r["ettr"],
                               1 - 1.25 / (16 * R.HOURS_PER_YEAR))

    def test_node_jobs_and_one_big_job(self):
        r = R.replay(self.ev, self.table, "a", "SPX/NPS1", 16, 8, COST)
        self.assertAlmostEqual(r["gpu_hours_lost"], 8 * 1.25)
        r = R.replay(self.ev, self.table, "a", "SPX/NPS1", 16, 16, COST)
        self.assertAlmostEqual(r["gpu_hours_lost"], 16 * 1.25)

    def test_hive_reset_takes_every_job_of_the_node(self):
        r = R.replay(self.ev, self.table, "b", "SPX/NPS1", 16, 1, COST)
        self.assertEqual(r["jobs_interrupted"], 8)
        self.assertAlmostEqual(r["gpu_hours_lost"], 8 * 1.25)

    def test_node_costs_the_reboot(self):
        ev = [(2.1, "host_maintenance", 3)]
        r = R.replay(ev, self.table, "a", "SPX/NPS1", 16, 1, COST)
        self.assertEqual(r["jobs_interrupted"], 8)
        self.assertAlmostEqual(r["gpu_hours_lost"], 8 * (0.1 + 0.5))

    def test_partition_jobs(self):
        ev = [(0.75, "gpu_sram", 2)]
        r = R.replay(ev, self.table, "a", "CPX/NPS4", 16, 0.125, COST)
        self.assertEqual(r["jobs_interrupted"], 1)
        self.assertAlmostEqual(r["gpu_hours_lost"], 0.125 * (0.25 + 0.1))

    def test_a_job_cause_costs_its_job_only(self):
        ev = [(0.2, "software_bug", 5)]
        r = R.replay(ev, {}, "x", "SPX/NPS1", 16, 8, COST)
        self.assertEqual(r["jobs_interrupted"], 1)
        self.assertAlmostEqual(r["gpu_hours_lost"], 8 * 0.2)

    def test_a_job_still_down_is_not_hit_twice(self):
        ev = [(1.25, "faulty_gpu", 9), (1.5, "faulty_gpu", 9)]
        r = R.replay(ev, self.table, "a", "SPX/NPS1", 16, 1, COST)
        self.assertEqual(r["jobs_interrupted"], 1)

    def test_nothing_lost_hits_nothing(self):
        t = R.load_table([row("a", "SPX/NPS1", "device_ue", 0)])
        r = R.replay(self.ev, t, "a", "SPX/NPS1", 16, 1, COST)
        self.assertEqual(r["jobs_interrupted"], 0)
        self.assertEqual(r["gpu_hours_lost"], 0)

    def test_no_measured_row_no_replay(self):
        with self.assertRaises(R.ReplayError):
            R.replay(self.ev, self.table, "c", "SPX/NPS1", 16, 1, COST)
        with self.assertRaises(R.ReplayError):
            R.replay(self.ev, self.table, "a", "SPX/NPS1", 16, 3, COST)

    def test_smaller_hive_measured_scales_to_the_node(self):
        t = R.load_table([
            row("a", "SPX/NPS1", "device_ue", 6, devices=1, parts=1,
                hive=2),
            row("a", "SPX/NPS1", "fabric", 7, devices=2, parts=2, hive=2),
            row("a", "CPX/NPS4", "engine_ue", 4, parts=1, hive=2, ppd=8),
            row("a", "CPX/NPS4", "poison_consumed", 1, procs=1, hive=2,
                ppd=8)])
        fp = {k[2]: R.footprint(v) for k, v in t.items()}
        self.assertEqual(fp["device_ue"], 1.0)
        self.assertEqual(fp["fabric"], 8.0)
        self.assertEqual(fp["engine_ue"], 0.125)
        self.assertEqual(fp["poison_consumed"], 0.125)


class Table(unittest.TestCase):
    def test_reads_the_selftest_log(self):
        r = row("amdx", "SPX/NPS1", "firmware", 6, devices=1)
        with tempfile.NamedTemporaryFile("w", suffix=".log",
                                         delete=False) as f:
            f.write("TAP version 13\n# REPLAY %s\nok 1 x\n" % json.dumps(r))
        try:
            t = R.read_table(f.name)
        finally:
            os.unlink(f.name)
        self.assertEqual(t[("amdx", "SPX/NPS1", "firmware")], r)

    def test_refuses_differing_repeats_and_holes(self):
        r = row("amdx", "SPX/NPS1", "firmware", 6)
        other = dict(r, processes_lost=1)
        with self.assertRaises(R.ReplayError):
            R.load_table([r, other])
        del r["est_ms"]
        with self.assertRaises(R.ReplayError):
            R.load_table([r])


    def test_hives_of_one_layout_measured_alike_count_once(self):
        # make replay's 4 hives: two of each layout, each measured
        r = row("amdx", "SPX/NPS1", "firmware", 6)
        t = R.load_table([r, dict(r)])
        self.assertEqual(t, {("amdx", "SPX/NPS1", "firmware"): r})

    def test_run_times_may_differ_the_slowest_is_shown(self):
        r = dict(row("amdx", "SPX/NPS1", "firmware", 6), ran=True, run_ms=7)
        t = R.load_table([r, dict(r, run_ms=40), dict(r, run_ms=9)])
        self.assertEqual(t[("amdx", "SPX/NPS1", "firmware")]["run_ms"], 40)
        self.assertIn(" 40\n", R.rst_loss(t))
        # nothing ran: no time
        n = row("amdx", "SPX/NPS1", "page_ce", 0)
        self.assertRegex(R.rst_loss(R.load_table([n])), r"\s-\s*\n")


class EndToEnd(unittest.TestCase):
    def test_same_seed_same_report(self):
        rows = [row(p, "SPX/NPS1", k, 6 if p == "amdx" else 7,
                    devices=1 if p == "amdx" else 8, est_ms=5000)
                for p in ("amdx", "per-gpu")
                for k in ("device_ue", "poison_consumed", "reset_failed",
                          "engine_ue", "firmware")]
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "loss.json")
            with open(src, "w", encoding="utf-8") as f:
                json.dump(rows, f)
            outs = []
            for run in ("1", "2"):
                out = os.path.join(d, run)
                os.mkdir(out)
                args = [src, "--gpus", "1024", "--jobs", "8", "--out", out]
                if importlib.util.find_spec("matplotlib") is None:
                    args.remove("--out")
                    args.remove(out)
                self.assertEqual(R.main(args), 0)
                if "--out" in args:
                    with open(os.path.join(out, "report.json"),
                              encoding="utf-8") as f:
                        outs.append(json.load(f))
            if outs:
                self.assertEqual(outs[0], outs[1])
                res = {r["policy"]: r for r in outs[0]["results"]
                       if r["model"] == "llama3"}
                self.assertLessEqual(res["amdx"]["gpu_hours_lost"],
                                     res["per-gpu"]["gpu_hours_lost"])
                self.assertTrue(os.path.exists(
                    os.path.join(d, "1", "loss-SPX-NPS1.png")))


if __name__ == "__main__":
    unittest.main()
