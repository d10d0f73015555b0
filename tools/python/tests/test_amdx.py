# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""`import amdx` against the host tests' fake kernel (amdx._fake)."""
import errno
import json
import unittest

import amdx

AMDX_EVENT_ERROR = 1
AMDX_EVENT_PAGE_RETIRED = 3
AMDX_EVENT_LINK = 18
AMDX_LINK_STATE_REPLAY = 2
AMDX_LINK_STATE_DOWN = 3
AMDX_LINK_CONTAIN_MOVE = 2
AMDX_PART_STEP_COMPUTE = 4
AMDX_RECOVER_PARTITION = 4  # uapi/linux/amdx.h
AMDX_FAULT_ENGINE_UE = 3
AMDX_EVENT_RECOVERY = 17
AMDX_RECOVERY_EV_PENDING = 0
AMDX_RECOVERY_SUM_VALID = 1 << 63
AMDX_VF_NONE = 0xFFFFFFFF


class AmdxModule(unittest.TestCase):
    def setUp(self):
        self.kernel = amdx._fake.Kernel()
        self.kernel.add_device(0)
        self.kernel.add_device(1)
        self.ctl = amdx.Control("/dev/null")
        self.dev = self.ctl.open(0)

    def tearDown(self):
        del self.dev, self.ctl, self.kernel

    def test_version_and_devices(self):
        self.assertEqual(amdx.__version__, "8.0.0")
        self.assertEqual([d["device"] for d in self.ctl.devices()], [0, 1])
        info = self.ctl.device_info(1)
        self.assertEqual(info["bdf"], "0000:c2:00.0")
        self.assertEqual(info["compute_mode"], "SPX")
        self.assertEqual(self.dev.info()["device"], 0)

    def test_errors_are_oserrors_with_context(self):
        with self.assertRaises(amdx.Error) as cm:
            self.ctl.device_info(9)
        self.assertIsInstance(cm.exception, OSError)
        self.assertEqual(cm.exception.errno, errno.ENODEV)
        self.assertIn("AMDX_QUERY_DEVICE_INFO on device 9", cm.exception.strerror)
        self.assertIsNone(cm.exception.report)  # only refused changes carry one
        with self.assertRaises(ValueError):
            self.dev.plan(compute="XPX")

    def test_another_uapi_major_is_refused(self):
        self.kernel.set_major(99)
        with self.assertRaises(amdx.Error) as cm:
            amdx.Control("/dev/null")
        self.assertEqual(cm.exception.errno, errno.EPROTONOSUPPORT)

    def test_plan_commit_and_rollback(self):
        plan = self.dev.plan(compute="DPX")
        self.assertTrue(plan["allowed"])
        self.assertEqual(len(plan["partitions"]), 2)
        self.kernel.fail_step(AMDX_PART_STEP_COMPUTE, errno.EIO)
        with self.assertRaises(amdx.Error) as cm:
            self.dev.commit(compute="DPX")
        self.assertEqual(cm.exception.errno, errno.EIO)
        self.assertIn("step compute failed, rolled back", cm.exception.strerror)
        self.assertEqual(cm.exception.report["outcome"], "rolled_back")
        self.assertEqual(cm.exception.report["failed_step"], "compute")
        self.assertEqual(self.dev.partitions()["compute_mode"], "SPX")
        self.kernel.fail_step(0, 0)
        self.assertEqual(self.dev.commit(compute="DPX")["outcome"], "committed")
        self.assertEqual(len(self.dev.partitions()["partitions"]), 2)

    def test_vfs(self):
        with self.assertRaises(amdx.Error) as cm:  # SPX: one VF only
            self.dev.vf_enable(2)
        self.assertIn("(reason vf_compute)", cm.exception.strerror)
        self.assertEqual(cm.exception.report["reason"], "vf_compute")
        self.dev.vf_enable(1)
        self.assertEqual([v["vf"] for v in self.dev.vfs()["vfs"]], [0])
        self.assertIn(self.dev.vf_reset(0)["result"], ("acked", "ack_timeout"))
        self.dev.vf_disable()
        self.assertEqual(self.dev.vfs()["vfs"], [])

    def test_recovery_plan_and_run(self):
        self.assertEqual(self.dev.recovery_plan()["action"], "none")
        with self.assertRaises(amdx.Error) as cm:
            self.dev.recovery_run()
        self.assertEqual(cm.exception.errno, errno.ENOENT)
        with self.assertRaises(ValueError):
            self.dev.recovery_plan(action="reboot_everything")
        self.dev.commit(compute="DPX")
        seq = self.kernel.recovery_fault(0, 1, AMDX_RECOVER_PARTITION, AMDX_FAULT_ENGINE_UE)
        plan = self.dev.recovery_plan(partition=1)
        self.assertEqual((plan["action"], plan["state"], plan["seq"]), ("partition", "pending", seq))
        self.assertEqual(plan["reset_devices"], [])  # none reset whole
        self.assertEqual(plan["scope"], [
            {"device": 0, "reset": "partitions", "partitions": [1], "vfs": []}])
        self.assertEqual(self.dev.recovery_plan(partition=0)["action"], "none")
        run = self.dev.recovery_run(partition=1)
        self.assertEqual(run["outcome"], "cleared")
        self.assertEqual(self.dev.recovery_plan(partition=1)["action"], "none")

    def test_links_of_the_hive(self):
        self.assertEqual(self.dev.links(), {"links": []})
        self.kernel.add_link(0, 1, 0)
        self.kernel.add_link(0, 1, 2)  # AMDX_LINK_STATE_REPLAY
        links = self.dev.links()["links"]
        self.assertEqual([l["hive_id"] for l in links], ["9", "9"])
        self.assertEqual([l["link"] for l in links], [0, 1])
        storm = links[1]
        self.assertEqual((storm["device_a"], storm["device_b"]), (0, 1))
        self.assertEqual(storm["state"], "replay")
        self.assertEqual(storm["hops"], 2)
        self.assertTrue(storm["route_degraded"])
        self.assertFalse(links[0]["route_degraded"])
        self.assertEqual(len(storm["time_ns"]), 5)

    def test_ras_injection_counters_badpages_and_events(self):
        stream = self.dev.events(["error"])
        seq = self.dev.inject("umc", "ce", address=0x200000)
        self.assertGreater(seq, 0)
        umc = [b for b in self.dev.ras()["blocks"] if b["block"] == "umc"][0]
        self.assertEqual(umc["total"]["ce"], 1)
        self.assertIsInstance(self.dev.badpages(), list)
        ev = next(iter(stream))
        self.assertEqual(ev["kind"], "error")
        self.assertEqual(ev["block"], "umc")
        self.assertEqual(ev["address"], 0x200000)
        self.assertEqual(stream.next(timeout_ms=0), [])

    def test_event_stream_iterates_typed_records(self):
        stream = self.dev.events()
        self.kernel.emit(0, AMDX_EVENT_PAGE_RETIRED, 0x4000, 1)
        got = stream.next(timeout_ms=1000)
        self.assertEqual(len(got), 1)
        # The CLI's `monitor -j` object (libamdx's event_fields()): no
        # partition when the record names none.
        self.assertEqual(got[0], {
            "device": 0, "seq": got[0]["seq"], "timestamp_ns": got[0]["timestamp_ns"],
            "kind": "page_retired", "address": 0x4000, "cause": "ce", "moved_pages": 0})
        with self.assertRaises(ValueError):
            self.dev.events(["nonsense"])

    def test_link_events_are_decoded(self):
        stream = self.dev.events(["link"])
        self.kernel.emit(0, AMDX_EVENT_LINK, 1, AMDX_LINK_CONTAIN_MOVE, data1=2,
                         block=AMDX_LINK_STATE_REPLAY, type=AMDX_LINK_STATE_DOWN, instance=5)
        ev = stream.next(timeout_ms=1000)[0]
        self.assertEqual(ev, {
            "device": 0, "seq": ev["seq"], "timestamp_ns": ev["timestamp_ns"], "kind": "link",
            "link": 5, "peer": 1, "state": "down", "previous_state": "replay",
            "contain": "move", "hops": 2})

    def test_recovery_events_are_decoded(self):
        stream = self.dev.events(["recovery"])
        summary = AMDX_RECOVERY_SUM_VALID | AMDX_RECOVER_PARTITION | 1 << 8 | 1 << 16
        self.kernel.emit(0, AMDX_EVENT_RECOVERY, 0, summary, data1=1500,
                         block=AMDX_FAULT_ENGINE_UE, type=AMDX_RECOVERY_EV_PENDING,
                         instance=AMDX_VF_NONE, partition=1)
        ev = stream.next(timeout_ms=1000)[0]
        self.assertEqual(ev, {
            "device": 0, "seq": ev["seq"], "timestamp_ns": ev["timestamp_ns"],
            "kind": "recovery", "step": "pending", "fault": "engine_ue", "partition": 1,
            "action": "partition", "cause_seq": ev["seq"], "num_devices": 1,
            "num_partitions": 1, "num_vfs": 0, "num_processes": 0, "estimate_ms": 1500})

    def test_error_events_name_the_consumer(self):
        stream = self.dev.events(["error"])
        self.kernel.set_consumer(4242, 0x8001)
        self.dev.inject("gfx", "ue")
        ev = stream.next(timeout_ms=1000)[0]
        self.assertEqual((ev["block"], ev["pid"], ev["pasid"]), ("gfx", 4242, 0x8001))
        # uapi minor 9: the driver's RAS event id of the UE (libamdx 7.0)
        self.assertGreater(ev["driver_event"], 0)
        # uapi minor 10: its type, a consumed poison (libamdx 8.0)
        self.assertEqual(ev["driver_event_type"], "poison_consumption")

    def test_firmware(self):
        fw = self.dev.firmware()
        self.assertEqual(fw["driver"]["provider"], "amdx_sim")
        self.assertEqual(fw["firmware"][0],
                         {"name": "smu", "instance": 0, "fw_version": 0x00557100, "feature": 0})
        self.kernel.no_firmware()
        with self.assertRaises(amdx.Error) as cm:
            self.dev.firmware()
        self.assertEqual(cm.exception.errno, errno.EOPNOTSUPP)

    def test_results_are_the_clis_json(self):
        """One encoder for both: each view's object is `amdx -j`'s."""
        self.dev.inject("umc", "ce", address=0x200000)
        self.dev.inject("umc", "ue", address=0x400000)
        self.kernel.add_link(0, 1, 2)
        self.dev.vf_enable(1)

        def cli(*args):
            code, out = amdx._fake.cli(["amdx", "-d", "/dev/null", "-j", *args])
            self.assertEqual(code, 0, out)
            return json.loads(out)

        self.assertEqual(self.ctl.devices(), cli("dev", "list")["devices"])
        # A Device alone cannot number the node's GPUs: its "gpus" is None.
        shown = cli("dev", "show", "0")["devices"][0]
        self.assertEqual(self.dev.info(), {**shown, "gpus": None})
        self.assertEqual(self.ctl.device_info(1), cli("dev", "show", "1")["devices"][0])
        self.assertEqual(self.dev.firmware(), cli("dev", "firmware", "0")["devices"][0])
        self.assertEqual(self.dev.partitions(), cli("partition", "show", "0")["devices"][0])
        self.assertEqual(self.dev.vfs(), cli("vf", "show", "0")["devices"][0])
        self.assertEqual(self.dev.ras(), cli("ras", "show", "0")["devices"][0])
        links = cli("link", "show", "0")
        del links["schema_version"]  # the document's, not the view's
        self.assertEqual(self.dev.links(), links)
        self.assertEqual(self.dev.badpages(), cli("ras", "badpages", "0")["devices"][0]["pages"])

    def test_change_reports_are_the_clis_json(self):
        """plan, commit, vf_reset, recovery_plan and recovery_run return
        `amdx -j`'s object of the same operation (one encoder for both)."""
        def cli(*args):
            code, out = amdx._fake.cli(["amdx", "-d", "/dev/null", "-j", *args])
            self.assertEqual(code, 0, out)
            return json.loads(out)

        def without_seq(doc):
            """doc without its records' sequence numbers (a second run's differ)."""
            if isinstance(doc, dict):
                return {k: without_seq(v) for k, v in doc.items() if k != "seq"}
            if isinstance(doc, list):
                return [without_seq(v) for v in doc]
            return doc

        self.assertEqual(self.dev.plan(compute="DPX", memory="NPS2"),
                         cli("partition", "plan", "0", "--compute", "dpx", "--memory", "nps2")["plan"])
        done = cli("partition", "set", "0", "--compute", "dpx")["commit"]
        self.assertEqual(self.dev.commit(compute="SPX")["outcome"], "committed")
        self.assertEqual(self.dev.commit(compute="DPX"), done)
        # A refused commit's report is the object `amdx -j partition set` prints.
        self.kernel.fail_step(AMDX_PART_STEP_COMPUTE, errno.EIO)
        code, _ = amdx._fake.cli(["amdx", "-d", "/dev/null", "-j", "partition", "set", "0",
                                  "--compute", "spx"])
        self.assertNotEqual(code, 0)
        with self.assertRaises(amdx.Error) as cm:
            self.dev.commit(compute="SPX")
        self.kernel.fail_step(0, 0)
        self.assertEqual(cm.exception.report["outcome"], "rolled_back")
        self.assertEqual(set(cm.exception.report), set(done))

        self.dev.vf_enable(1)
        by_cli = cli("vf", "reset", "0", "0")["vf_reset"]
        by_py = self.dev.vf_reset(0)
        self.assertEqual(by_py, {**by_cli, "resets_in_window": by_cli["resets_in_window"] + 1})
        self.dev.vf_disable()

        self.assertEqual(self.dev.recovery_plan(), cli("recover", "plan", "0")["plan"])
        self.kernel.recovery_fault(0, 1, AMDX_RECOVER_PARTITION, AMDX_FAULT_ENGINE_UE)
        self.assertEqual(self.dev.recovery_plan(partition=1),
                         cli("recover", "plan", "0", "partition=1")["plan"])
        self.assertEqual(self.dev.recovery_plan(partition=1, action="device"),
                         cli("recover", "plan", "0", "partition=1", "--action", "device")["plan"])
        by_cli = cli("recover", "run", "0", "partition=1", "--yes")["run"]
        self.assertEqual(by_cli["outcome"], "cleared")
        self.assertTrue(by_cli["steps"])
        self.kernel.recovery_fault(0, 1, AMDX_RECOVER_PARTITION, AMDX_FAULT_ENGINE_UE)
        by_py = self.dev.recovery_run(partition=1, others=True)
        self.assertNotEqual(by_py["seq"], by_cli["seq"])
        self.assertEqual(without_seq(by_py), without_seq(by_cli))

    def test_identity_of_a_simulated_device(self):
        ident = self.dev.identity()
        self.assertIsNone(ident["drm_card"])
        self.assertEqual(ident["kfd_nodes"], [])
        self.assertIn("simulated", ident["note"])


if __name__ == "__main__":
    unittest.main()
