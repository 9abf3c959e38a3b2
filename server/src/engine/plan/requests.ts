/**
 * The GPUs a repository's job descriptions ask for: a SkyPilot task (`resources.accelerators`) or a
 * Kubernetes manifest (a GPU limit with a node selector or affinity on the GPU product, the cloud's
 * accelerator label or the instance type). Each request names the profile it maps to, the file and
 * the words that say so, and the config files its commands name (`run:`, `command:`, `args:`), so
 * that a config a job runs takes the job's GPUs as evidence, and any other config in the folder at
 * most as an assumption. A name no profile matches (`L4`, `T4`, a site's own label) requests nothing.
 */
import * as Y from 'yaml';
import { hardwareById } from './hardware';

export interface GpuRequest {
  /** The profile the request maps to. */
  id: string;
  /** The file that asks, by name. */
  file: string;
  /** What it says, as written (`accelerators: H100:8`). */
  what: string;
  /** The paths of the files its commands mention, as written (`train.sh`, `configs/ds_config.json`). */
  runs: string[];
}

/** SkyPilot's accelerator names (its `A100` is the 40 GB part). */
const SKYPILOT: Record<string, string> = {
  a100: 'a100-40gb',
  'a100-80gb': 'a100-80gb',
  h100: 'h100-sxm',
  'h100-mega': 'h100-sxm',
  h200: 'h200',
  b200: 'b200',
  gb200: 'gb200-nvl72',
  l40s: 'l40s',
  h20: 'h20',
  mi300x: 'mi300x',
};

/** Kubernetes node labels that name the GPU: the value maps through `KUBE_PRODUCTS`. */
const KUBE_LABELS = ['nvidia.com/gpu.product', 'cloud.google.com/gke-accelerator', 'node.kubernetes.io/instance-type', 'beta.kubernetes.io/instance-type', 'karpenter.k8s.aws/instance-gpu-name'];

/** Values of those labels (GPU feature discovery, GKE, AWS instance types), matched whole or as a prefix. */
const KUBE_PRODUCTS: [RegExp, string][] = [
  [/^nvidia-a100-sxm4-80gb$|^nvidia-a100-80gb$|^p4de\./, 'a100-80gb'],
  [/^nvidia-a100-sxm4-40gb$|^nvidia-tesla-a100$|^p4d\./, 'a100-40gb'],
  [/^nvidia-h100-80gb-hbm3$|^nvidia-h100-mega-80gb$|^nvidia-h100-80gb$|^p5\.|^a3-(high|mega)gpu/, 'h100-sxm'],
  [/^nvidia-h100-pcie$/, 'h100-pcie'],
  [/^nvidia-h200(-141gb)?$|^p5e\.|^p5en\.|^a3-ultragpu/, 'h200'],
  [/^nvidia-b200$|^p6-b200\.|^a4-highgpu/, 'b200'],
  [/^nvidia-gb200$/, 'gb200-nvl72'],
  [/^nvidia-l40s$|^g6e\./, 'l40s'],
  [/^nvidia-h20$/, 'h20'],
];

const MAX_TEXT = 256 * 1024;
/** The paths of files a command mentions that could be configs. */
const CONFIG_NAME = /[\w./-]+\.(ya?ml|json|sh)\b/g;

/** Whether a file may hold a request (a cheap test before parsing). */
export function mayRequestGpus(text: string): boolean {
  return text.length <= MAX_TEXT && /accelerators\s*:|nvidia\.com\/gpu/.test(text);
}

/** The GPU requests of one YAML file (SkyPilot task or Kubernetes manifests); none when it is neither. */
export function gpuRequests(file: string, text: string): GpuRequest[] {
  if (!mayRequestGpus(text)) return [];
  let docs: unknown[];
  try {
    docs = Y.parseAllDocuments(text, { logLevel: 'error' }).slice(0, 64).map((d) => (d.errors.length ? undefined : d.toJS({ maxAliasCount: 50 })));
  } catch {
    return [];
  }
  const out: GpuRequest[] = [];
  for (const doc of docs) {
    if (!isMap(doc)) continue;
    const sky = skypilot(file, doc);
    if (sky) out.push(sky);
    else if (typeof doc.kind === 'string' && typeof doc.apiVersion === 'string') out.push(...kubernetes(file, doc));
  }
  return out;
}

function isMap(x: unknown): x is Record<string, unknown> {
  return !!x && typeof x === 'object' && !Array.isArray(x);
}

function mentioned(...texts: unknown[]): string[] {
  const names = new Set<string>();
  const visit = (x: unknown, depth: number): void => {
    if (depth > 12 || names.size > 64) return;
    if (typeof x === 'string') for (const m of x.matchAll(CONFIG_NAME)) names.add(m[0]);
    else if (Array.isArray(x)) x.forEach((y) => visit(y, depth + 1));
    else if (isMap(x)) Object.values(x).forEach((y) => visit(y, depth + 1));
  };
  texts.forEach((t) => visit(t, 0));
  return [...names];
}

/** A SkyPilot task: `resources.accelerators` (`H100:8`, `{A100-80GB: 8}`, a list or set of alternatives) and a `run:` command. */
function skypilot(file: string, doc: Record<string, unknown>): GpuRequest | undefined {
  const res = doc.resources;
  if (!isMap(res) || !('accelerators' in res) || !('run' in doc || 'setup' in doc || 'num_nodes' in doc)) return undefined;
  const acc = res.accelerators;
  const names = typeof acc === 'string' ? [acc] : Array.isArray(acc) ? acc.filter((x): x is string => typeof x === 'string') : isMap(acc) ? Object.keys(acc) : [];
  const ids = names.map((n) => SKYPILOT[n.split(':')[0].trim().toLowerCase()]);
  // Alternatives (`[A100:8, H100:8]`) name one profile only when they all map to it.
  if (!ids.length || ids.some((id) => !id || id !== ids[0])) return undefined;
  const written = typeof acc === 'string' ? acc : JSON.stringify(acc);
  return { id: ids[0]!, file, what: `resources.accelerators: ${written}`, runs: mentioned(doc.run) };
}

/** A Kubernetes object whose pod template asks for NVIDIA GPUs and selects the nodes by a GPU label. */
function kubernetes(file: string, doc: Record<string, unknown>): GpuRequest[] {
  const found = new Map<string, { what: string; runs: string[] }>();
  const visit = (x: unknown, depth: number): void => {
    if (depth > 24 || !isMap(x)) {
      if (Array.isArray(x) && depth <= 24) x.forEach((y) => visit(y, depth + 1));
      return;
    }
    const spec = isMap(x.spec) && Array.isArray(x.spec.containers) ? x.spec : undefined;
    if (spec) {
      const gpus = (spec.containers as unknown[]).some((c) => isMap(c) && /nvidia\.com\/gpu/.test(JSON.stringify(c.resources ?? {})));
      const label = gpus ? gpuLabel(spec) : undefined;
      if (label) found.set(`${label.id}\0${label.what}`, { what: label.what, runs: [...(found.get(`${label.id}\0${label.what}`)?.runs ?? []), ...mentioned((spec.containers as unknown[]).map((c) => (isMap(c) ? [c.command, c.args] : [])))] });
    }
    Object.values(x).forEach((y) => visit(y, depth + 1));
  };
  visit(doc, 0);
  return [...found].map(([key, v]) => ({ id: key.split('\0')[0], file, what: v.what, runs: v.runs }));
}

/** The GPU a pod spec's node selector or required node affinity names. */
function gpuLabel(spec: Record<string, unknown>): { id: string; what: string } | undefined {
  const pairs: [string, string][] = [];
  if (isMap(spec.nodeSelector)) for (const [k, v] of Object.entries(spec.nodeSelector)) if (typeof v === 'string') pairs.push([k, v]);
  const terms = (spec.affinity as { nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: unknown[] } } } | undefined)?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  for (const t of Array.isArray(terms) ? terms : []) {
    for (const e of isMap(t) && Array.isArray(t.matchExpressions) ? t.matchExpressions : []) {
      // One value only: `In [a, b]` lets the scheduler pick either.
      if (isMap(e) && typeof e.key === 'string' && e.operator === 'In' && Array.isArray(e.values) && e.values.length === 1 && typeof e.values[0] === 'string') pairs.push([e.key, e.values[0]]);
    }
  }
  const hits = pairs.filter(([k]) => KUBE_LABELS.includes(k)).map(([k, v]) => ({ id: KUBE_PRODUCTS.find(([re]) => re.test(v.toLowerCase()))?.[1], what: `${k}: ${v}` }));
  const ids = new Set(hits.map((h) => h.id));
  return hits.length && ids.size === 1 && hits[0].id && hardwareById(hits[0].id) ? { id: hits[0].id, what: hits[0].what } : undefined;
}

/**
 * What the requests of a folder say about a file: the profile of the jobs that name it (evidence),
 * else the one profile every request of the folder names (an assumption); nothing when they differ.
 */
export function requestedHardware(requests: readonly GpuRequest[], runsFile: (request: GpuRequest, path: string) => boolean): { id: string; note: string; assumed?: boolean } | undefined {
  const one = (rs: readonly GpuRequest[]): GpuRequest | undefined => (rs.length && rs.every((r) => r.id === rs[0].id) ? rs[0] : undefined);
  // A job runs the file when a path its commands name resolves to it (the host resolves: a name alone may be another file's).
  const running = requests.filter((r) => r.runs.some((p) => runsFile(r, p)));
  if (running.length) {
    const r = one(running);
    return r ? { id: r.id, note: `from \`${r.what}\` in ${r.file}, which runs this file` } : undefined;
  }
  const r = one(requests);
  return r ? { id: r.id, note: `the GPUs ${r.file} asks for (\`${r.what}\`), a job of this repository that does not name this file`, assumed: true } : undefined;
}
