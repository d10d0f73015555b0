# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Type stubs of `import amdx` (amdx_module.cpp; Documentation/library.rst).

The views' results and the change reports are the CLI's JSON objects,
made by the CLI's own encoders (`amdx -j dev show`, `partition show`,
`vf show`, `ras show`, `link show`, `dev firmware`; `partition plan`,
`partition set`, `vf reset`, `recover plan`, `recover run`:
Documentation/admin-guide/cli.rst and its schemas); the TypedDicts below
name their keys (objects may gain keys: total=False where a key can be
missing).  tests/test_stub.py checks that
every class, method, function and attribute here is the module's, and the
other way round (TypedDicts are the stub's own).
"""
from typing import Any, Iterator, Optional, TypedDict

class DeviceEntry(TypedDict):
    """`amdx -j dev list`: one element of "devices"."""

    device: int
    bdf: str
    model: str

class Driver(TypedDict):
    amdx: str
    provider: str
    provider_version: str

class Firmware(TypedDict):
    name: str
    instance: int
    fw_version: int
    feature: int

class Gpu(TypedDict):
    index: int
    partition: int
    uuid: Optional[str]

class DeviceShow(TypedDict):
    """`amdx -j dev show DEV`: one element of "devices"."""

    device: int
    bdf: str
    model: str
    product: str
    serial: str
    hive_id: str
    num_xcc: int
    num_sdma: int
    num_vcn: int
    compute_mode: str
    memory_mode: str
    supported_compute_modes: list[str]
    supported_memory_modes: list[str]
    vram: dict[str, int]
    memory_partitions: list[dict[str, int]]
    vfs: dict[str, int]
    hmm: bool
    identity: dict[str, Any]
    recovery: Optional[str]
    driver: Optional[Driver]
    firmware: Optional[list[Firmware]]
    # None from Device.info(): a device alone cannot number the node's GPUs
    gpus: Optional[list[Gpu]]

class FirmwareShow(TypedDict):
    """`amdx -j dev firmware DEV`: one element of "devices"."""

    device: int
    bdf: str
    driver: Driver
    firmware: list[Firmware]

class Partition(TypedDict):
    id: int
    state: str
    xccs: list[int]
    sdma: list[int]
    vcn: list[int]
    mem_partition: int
    vram_base: int
    vram_size: int
    vf: Optional[int]
    resets: int
    recovery: Optional[str]

class PartitionShow(TypedDict):
    """`amdx -j partition show DEV`: one element of "devices"."""

    device: int
    bdf: str
    compute_mode: str
    memory_mode: str
    generation: int
    partitions: list[Partition]

class VfShow(TypedDict):
    """`amdx -j vf show DEV`: one element of "devices"."""

    device: int
    bdf: str
    max_vfs: int
    vfs: list[dict[str, Any]]

class RasBlock(TypedDict):
    block: str
    instances: int
    supported: list[str]
    total: Optional[dict[str, Optional[int]]]
    partitions: list[dict[str, Optional[int]]]

class RasShow(TypedDict):
    """`amdx -j ras show DEV`: one element of "devices"."""

    device: int
    bdf: str
    rma: bool
    retired_pages: int
    pending_pages: int
    reset_scope: dict[str, Any]
    blocks: list[RasBlock]

class LinkShow(TypedDict):
    """`amdx -j link show DEV`."""

    links: list[dict[str, Any]]

class Modes(TypedDict):
    compute_mode: str
    memory_mode: str

class Holder(TypedDict):
    pid: int
    comm: str
    mem_partition: int
    pages: int

class PartitionStep(TypedDict):
    step: str
    result: str
    duration_ns: int

# `amdx -j partition plan` ("plan") and `partition set` ("commit"); the
# functional form because of the key "from".  Keys only a plan has:
# allowed, reset_devices; only a commit: outcome, failed_step, total_ns,
# steps.
PartitionChange = TypedDict(
    "PartitionChange",
    {
        "device": int,
        "from": Modes,
        "to": Modes,
        "result": str,
        "reason": str,
        "reason_text": str,
        "allowed": bool,
        "outcome": str,
        "failed_step": str,
        "total_ns": int,
        "steps": list[PartitionStep],
        "num_partitions": int,
        "partitions": list[Partition],
        "num_holders": int,
        "holders": list[Holder],
        "reset_devices": list[int],
    },
    total=False,
)

class VfReset(TypedDict):
    """`amdx -j vf reset DEV VF`: "vf_reset"."""

    device: int
    vf: int
    result: str
    state: str
    duration_ns: int
    resets_in_window: int
    vram_cleared: int

class RecoveryScope(TypedDict):
    device: int
    reset: str
    partitions: list[int]
    vfs: list[int]

class RecoveryProcess(TypedDict):
    pid: Optional[int]
    comm: str
    device: int
    mem_partition: int
    pages: int

class RecoveryStep(TypedDict):
    seq: int
    step: str
    partition: Optional[int]
    vf: Optional[int]
    action: str
    result: str

class RecoveryPlan(TypedDict):
    """`amdx -j recover plan DEV [TARGET]`: "plan"."""

    device: int
    partition: Optional[int]
    vf: Optional[int]
    action: str
    state: str
    fault: Optional[str]
    seq: int
    num_devices: int
    num_partitions: int
    num_vfs: int
    num_processes: int
    estimate_ms: Optional[int]
    estimate_source: str
    reset_devices: list[int]
    drain_peers: list[int]
    scope: list[RecoveryScope]
    processes: list[RecoveryProcess]

class RecoveryRun(RecoveryPlan):
    """`amdx -j recover run DEV [TARGET] --yes`: "run", the plan of the
    action run and how it went."""

    outcome: str
    result: str
    pending_after: str
    steps: list[RecoveryStep]

class BadPage(TypedDict):
    address: int
    partition: int
    cause: str
    time: int
    flags: int

__version__: str
UAPI_VERSION: tuple[int, int]

class Error(OSError):
    """A failed libamdx call: errno, strerror (the one-line message)."""

    # a refused commit's PartitionChange, a refused vf_enable's reason and bad_vf
    report: Optional[dict[str, Any]]

class EventStream:
    def __iter__(self) -> EventStream: ...
    def __next__(self) -> dict[str, Any]: ...
    def next(self, timeout_ms: int = -1, max: int = 64) -> list[dict[str, Any]]: ...
    def fileno(self) -> int: ...

class Device:
    @property
    def id(self) -> int: ...
    def info(self) -> DeviceShow: ...
    def firmware(self) -> FirmwareShow: ...
    def identity(self) -> dict[str, Any]: ...
    def links(self) -> LinkShow: ...
    def partitions(self) -> PartitionShow: ...
    def plan(
        self,
        compute: Optional[str] = None,
        memory: Optional[str] = None,
        drain: bool = False,
        deadline_ms: int = 0,
    ) -> PartitionChange: ...
    def commit(
        self,
        compute: Optional[str] = None,
        memory: Optional[str] = None,
        drain: bool = False,
        deadline_ms: int = 0,
    ) -> PartitionChange: ...
    def vfs(self) -> VfShow: ...
    def vf_enable(self, n: int, /) -> None: ...
    def vf_disable(self) -> None: ...
    def vf_reset(self, vf: int, /) -> VfReset: ...
    def recovery_plan(self, partition: Optional[int] = None, vf: Optional[int] = None, action: Optional[str] = None) -> RecoveryPlan: ...
    def recovery_run(self, partition: Optional[int] = None, vf: Optional[int] = None, action: Optional[str] = None, stop: bool = False, others: bool = False) -> RecoveryRun: ...
    def ras(self) -> RasShow: ...
    def inject(
        self, block: str, type: str, instance: int = 0, count: int = 1, address: int = 0
    ) -> int: ...
    def badpages(self) -> list[BadPage]: ...
    def events(self, kinds: Optional[list[str]] = None, ring_size: int = 0) -> EventStream: ...

class Control:
    def __init__(self, path: str = "/dev/amdx") -> None: ...
    def caps(self) -> dict[str, Any]: ...
    def devices(self) -> list[DeviceEntry]: ...
    def device_info(self, id: int, /) -> DeviceShow: ...
    def open(self, id: int, /) -> Device: ...
