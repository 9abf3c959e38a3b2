/**
 * Which releases of Megatron Core (and, where a container ships them, Accelerate and DeepSpeed) the
 * NVIDIA NGC container images carry, by image tag, so that a Dockerfile's `FROM`, a Slurm
 * `--container-image` or an `enroot import` names the release its configs run against.
 *
 * Every row cites its source: a versioned NVIDIA documentation page, or a file at a tag or commit of
 * a public repository, with the line that states or pins the release. A tag no source ties to a
 * release is not here: the NeMo Framework 24.12, 25.02, 25.04 and 25.07 containers; 25.11, whose
 * table names a development branch (`dev:0.15.0`), not a release; patch tags such as 25.04.01; the
 * PyTorch containers, which no source says ship any of the three tools. No source found names
 * Accelerate or DeepSpeed in any of these images, so no row does.
 */
import type { Tool } from './settings';

export interface ContainerRow {
  /** The image without tag, as NGC names it (`nvcr.io/nvidia/nemo`). */
  image: string;
  tag: string;
  releases: Partial<Record<Tool, string>>;
  /** Where the releases are stated: document and section, or repository, ref, file and line. */
  source: string;
}

const NEMO = 'nvcr.io/nvidia/nemo';
const NEMO_FW_2409 = 'https://docs.nvidia.com/nemo-framework/user-guide/24.09/softwarecomponentversions.html';
const BRIDGE_DOC = 'NVIDIA-NeMo/Megatron-Bridge at commit 067f987df03b, file docs/releases/software-versions.md';

export const CONTAINERS: readonly ContainerRow[] = [
  {
    image: NEMO,
    tag: '24.05',
    releases: { 'megatron-core': '0.7.0' },
    source: `NeMo Framework User Guide 24.09, Software Component Versions, table "NeMo Framework 24.05": Megatron Core 0.7.0 (${NEMO_FW_2409})`,
  },
  {
    image: NEMO,
    tag: '24.07',
    releases: { 'megatron-core': '0.8.0' },
    source: `NeMo Framework User Guide 24.09, Software Component Versions, table "NeMo Framework 24.07": Megatron Core 0.8 (${NEMO_FW_2409}); the only 0.8 release is NVIDIA/Megatron-LM tag core_v0.8.0`,
  },
  {
    image: NEMO,
    tag: '24.09',
    releases: { 'megatron-core': '0.9.0' },
    source: `NeMo Framework User Guide 24.09, Software Component Versions, table "NeMo Framework 24.09": Megatron Core 0.9.0, NeMo 2.0.0 (${NEMO_FW_2409}); NVIDIA/NeMo at tag v2.0.0, file Dockerfile.ci line 55: ARG MCORE_TAG=core_r0.9.0`,
  },
  {
    image: NEMO,
    tag: '25.09',
    releases: { 'megatron-core': '0.14.0' },
    source: `${BRIDGE_DOC} line 100 (section "NeMo Framework 25.09"): | Megatron Core | 0.14.0 |`,
  },
  {
    image: NEMO,
    tag: '26.02',
    releases: { 'megatron-core': '0.16.0' },
    source: `${BRIDGE_DOC} line 53 (section "NeMo Framework 26.02"): | Megatron Core | main:0.16.0 |, with Megatron-Bridge 0.3.0; NVIDIA-NeMo/Megatron-Bridge at tag v0.3.0 pins submodule 3rdparty/Megatron-LM at b0cc2706dd, whose megatron/core/package_info.py (lines 4-7) reads 0.16.0`,
  },
  {
    image: NEMO,
    tag: '26.04',
    releases: { 'megatron-core': '0.17.0' },
    source: `${BRIDGE_DOC} line 31 (section "NeMo Framework 26.04"): | Megatron Core | 0.17.0 |`,
  },
  {
    image: NEMO,
    tag: '26.06',
    releases: { 'megatron-core': '0.18.0' },
    source: `${BRIDGE_DOC} line 8 (section "NeMo Framework 26.06"): | Megatron Core | 0.18.0 |; NVIDIA-NeMo/Megatron-Bridge at tag v0.5.0 pins submodule 3rdparty/Megatron-LM at d0b3b77549, whose megatron/core/package_info.py (lines 5-8) reads 0.18.0`,
  },
];

/**
 * An image reference as a Dockerfile `FROM`, Pyxis (`nvcr.io#nvidia/nemo:24.07`) or enroot
 * (`docker://[user@]nvcr.io#nvidia/nemo:24.07`) writes it, with or without the registry and a
 * `@sha256:` digest. Anything else (a variable, another registry, no tag) does not match.
 */
const REFERENCE = /^(?:docker:\/\/(?:[^@/#\s]+@)?)?(?:nvcr\.io[/#])?(nvidia\/[a-z0-9._-]+):([\w][\w.-]{0,127})(?:@sha256:[0-9a-f]{64})?$/;

/** The row of the image a reference names, or undefined for an image or tag the table does not know. */
export function containerReleases(reference: string): { row: ContainerRow } | undefined {
  const m = REFERENCE.exec(reference.trim());
  if (!m) return undefined;
  const image = `nvcr.io/${m[1]}`;
  const row = CONTAINERS.find((r) => r.image === image && r.tag === m[2]);
  return row ? { row } : undefined;
}
