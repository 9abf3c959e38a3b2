/**
 * Hardware profiles: what a layout is checked against. The NVLink (scale-up) domain is not the
 * number of GPUs per node: on NVL72 racks a node (compute tray) has 4 GPUs and the domain 72; a
 * GPU without NVLink (the L40S) is a domain of 1, whatever its server holds.
 */
import { didYouMean } from '../suggest';

export interface HardwareProfile {
  id: string;
  title: string;
  /** GPUs that share the scale-up fabric (NVLink/NVSwitch, or AMD's xGMI mesh). */
  nvlinkDomain: number;
  /** GPUs per OS node (what a launcher's `--nproc_per_node` or Slurm sees). */
  gpusPerNode: number;
  /**
   * HBM per GPU in GiB, as the device reports it (the datasheet's "80 GB" is 80 GiB on the device).
   * GDDR6 on the L40S, where ECC (on by default) keeps about 3 of the datasheet's 48 GB.
   */
  hbmGiB: number;
  /** Dense tensor throughput, TFLOP/s (not the "with sparsity" figures). */
  bf16Tflops: number;
  fp8Tflops?: number;
  /**
   * Maximum achievable matmul throughput as a fraction of the dense peak (BF16, and FP8 where the
   * GPU has it), measured at the best shape found: what the step-time model lets a large GEMM reach.
   */
  mamf: { bf16: number; fp8?: number; source: string };
  /** Streaming multiprocessors (compute units): GEMM tiles run in waves of this many. */
  sms: number;
  /** HBM bandwidth per GPU, TB/s. */
  hbmTBps: number;
  /** Scale-up bandwidth per GPU and direction, GB/s (half the bidirectional figure datasheets quote). */
  scaleUpGBps: number;
  /** Scale-out (network) bandwidth per GPU and direction, GB/s: the NIC each GPU drives. */
  scaleOutGBps: number;
  /** Name of the scale-up fabric and of what links the domains. */
  scaleUp: string;
  scaleOut: string;
  source: string;
}


export const HARDWARE: readonly HardwareProfile[] = [
  {
    id: 'a100-40gb',
    title: 'A100 SXM4 40 GB (DGX/HGX A100, 8 GPUs)',
    nvlinkDomain: 8,
    gpusPerNode: 8,
    hbmGiB: 40,
    bf16Tflops: 312,
    mamf: { bf16: 0.869, source: 'ml-engineering’s Maximum Achievable Matmul FLOPS table (S. Bekman, mamf-finder.py, mean of 100 iterations at the best shape): A100 SXM 271.2 of 312 TFLOP/s BF16' },
    sms: 108,
    hbmTBps: 1.555,
    scaleUpGBps: 300,
    scaleOutGBps: 25,
    scaleUp: 'NVLink 3 (600 GB/s per GPU)',
    scaleOut: 'InfiniBand',
    source: 'NVIDIA A100 datasheet (BF16 312 TFLOP/s dense); DGX A100: six NVSwitches join 8 GPUs; HBM2 1,555 GB/s; NVLink 3 600 GB/s both ways; DGX A100: eight 200 Gb/s HDR InfiniBand adapters, one per GPU',
  },
  {
    id: 'a100-80gb',
    title: 'A100 SXM4 80 GB (DGX/HGX A100, 8 GPUs)',
    nvlinkDomain: 8,
    gpusPerNode: 8,
    hbmGiB: 80,
    bf16Tflops: 312,
    mamf: { bf16: 0.869, source: 'ml-engineering’s Maximum Achievable Matmul FLOPS table (S. Bekman, mamf-finder.py, mean of 100 iterations at the best shape): A100 SXM 271.2 of 312 TFLOP/s BF16' },
    sms: 108,
    hbmTBps: 2.039,
    scaleUpGBps: 300,
    scaleOutGBps: 25,
    scaleUp: 'NVLink 3 (600 GB/s per GPU)',
    scaleOut: 'InfiniBand',
    source: 'NVIDIA A100 datasheet (80 GB HBM2e, BF16 312 TFLOP/s dense); DGX A100 NVSwitch domain of 8; HBM2e 2,039 GB/s; NVLink 3 600 GB/s both ways; DGX A100: eight 200 Gb/s HDR InfiniBand adapters, one per GPU',
  },
  {
    id: 'l40s',
    title: 'L40S 48 GB PCIe (8 per server, no NVLink)',
    nvlinkDomain: 1,
    gpusPerNode: 8,
    hbmGiB: 45,
    bf16Tflops: 362,
    fp8Tflops: 733,
    mamf: { bf16: 0.74, source: 'an estimate: ml-engineering’s Maximum Achievable Matmul FLOPS table has no L40S row; one community torch.matmul run (zzc0721/torch-performance-test-data, square shapes up to 10240, PyTorch 2.8) reached 269.2 of 362 TFLOP/s BF16, rounded down to 0.74 (no FP8 figure; BF16 fraction used)' },
    sms: 142,
    hbmTBps: 0.864,
    scaleUpGBps: 32,
    scaleOutGBps: 25,
    scaleUp: 'none: no NVLink, each GPU is its own domain (PCIe Gen4 x16, 64 GB/s both ways, to the host)',
    scaleOut: 'PCIe Gen4 within the node, RoCE or InfiniBand between nodes',
    source: 'nvidia.com/en-us/data-center/l40s (datasheet: 48 GB GDDR6 with ECC at 864 GB/s; BF16 362.05 / FP8 733 TFLOP/s dense, 733 / 1,466 with sparsity; PCIe Gen4 x16; no NVLink); AD102 with 142 SMs; the memory field is what the device reports: nvidia-smi shows 46,068 MiB (45 GiB) with ECC on, the default; a 400 Gb/s adapter per two GPUs assumed (NVIDIA’s PCIe-optimized 2-8-5 server layout: 2 CPUs, 8 GPUs, 5 adapters)',
  },
  {
    id: 'h100-sxm',
    title: 'H100 SXM5 80 GB (DGX/HGX H100, 8 GPUs)',
    nvlinkDomain: 8,
    gpusPerNode: 8,
    hbmGiB: 80,
    bf16Tflops: 989,
    fp8Tflops: 1979,
    mamf: { bf16: 0.803, fp8: 0.709, source: 'ml-engineering’s Maximum Achievable Matmul FLOPS table (S. Bekman, mamf-finder.py, mean of 100 iterations at the best shape): H100 SXM 794.5 of 989 BF16, 1,402.6 of 1,979 FP8' },
    sms: 132,
    hbmTBps: 3.35,
    scaleUpGBps: 450,
    scaleOutGBps: 50,
    scaleUp: 'NVLink 4 (900 GB/s per GPU)',
    scaleOut: 'InfiniBand',
    source: 'nvidia.com/en-us/data-center/h100 (1,979 / 3,958 TFLOP/s with sparsity, halved for dense); HGX H100: four NVSwitches join 8 GPUs; HBM3 3.35 TB/s; NVLink 4 900 GB/s both ways; DGX H100: eight 400 Gb/s ConnectX-7 NDR adapters, one per GPU',
  },
  {
    id: 'h100-pcie',
    title: 'H100 PCIe 80 GB (8 per server, NVLink bridges between pairs)',
    nvlinkDomain: 2,
    gpusPerNode: 8,
    hbmGiB: 80,
    bf16Tflops: 756,
    fp8Tflops: 1513,
    mamf: { bf16: 0.803, fp8: 0.709, source: 'ml-engineering’s Maximum Achievable Matmul FLOPS table (S. Bekman, mamf-finder.py, mean of 100 iterations at the best shape): no PCIe figure; the H100 SXM fractions, 794.5 of 989 BF16 and 1,402.6 of 1,979 FP8' },
    sms: 114,
    hbmTBps: 2.0,
    scaleUpGBps: 300,
    scaleOutGBps: 25,
    scaleUp: 'NVLink bridge between GPU pairs (600 GB/s), PCIe otherwise',
    scaleOut: 'InfiniBand or Ethernet',
    source: 'nvidia.com/en-us/data-center/h100 (PCIe: BF16 1,513 / FP8 3,026 TFLOP/s with sparsity; NVLink bridge pairs two cards); HBM2e 2.0 TB/s; NVLink bridge 600 GB/s both ways between a pair; a 200 Gb/s adapter per GPU assumed',
  },
  {
    id: 'h20',
    title: 'H20 96 GB (HGX H20, 8 GPUs)',
    nvlinkDomain: 8,
    gpusPerNode: 8,
    hbmGiB: 96,
    bf16Tflops: 148,
    fp8Tflops: 296,
    mamf: { bf16: 0.95, source: 'an estimate: ml-engineering’s Maximum Achievable Matmul FLOPS table has no H20 row; two community torch.matmul runs (zzc0721/torch-performance-test-data, square shapes up to 10240, PyTorch 2.7 and 2.8) reached 141.9 and 142.3 of 148 TFLOP/s BF16, rounded down to 0.95: the export cap leaves a large GEMM compute-bound (no FP8 figure; BF16 fraction used)' },
    sms: 78,
    hbmTBps: 4.0,
    scaleUpGBps: 450,
    scaleOutGBps: 50,
    scaleUp: 'NVLink 4 (900 GB/s per GPU)',
    scaleOut: 'InfiniBand or RoCE',
    source: 'NVIDIA publishes no public H20 datasheet; the partner spec sheet as widely reported (willitrunai.com/gpus/h20-96gb, huggingface.co/hardware/h20): 96 GB HBM3 at 4.0 TB/s, FP16/BF16 148 and FP8 296 TFLOP/s dense (a measured 142 TFLOP/s BF16 rules out a sparsity figure), NVLink 4 900 GB/s both ways, 400 W; HGX H20: NVSwitch domain of 8; 78 SMs (torch.cuda.get_device_properties); a 400 Gb/s adapter per GPU assumed, as on HGX H100/H200',
  },
  {
    id: 'h200',
    title: 'H200 SXM 141 GB (DGX/HGX H200, 8 GPUs)',
    nvlinkDomain: 8,
    gpusPerNode: 8,
    hbmGiB: 141,
    bf16Tflops: 989,
    fp8Tflops: 1979,
    mamf: { bf16: 0.803, fp8: 0.734, source: 'ml-engineering’s Maximum Achievable Matmul FLOPS table (S. Bekman, mamf-finder.py, mean of 100 iterations at the best shape): BF16 as H100 SXM (794.5 of 989), H200 SXM 1,453.4 of 1,979 FP8' },
    sms: 132,
    hbmTBps: 4.8,
    scaleUpGBps: 450,
    scaleOutGBps: 50,
    scaleUp: 'NVLink 4 (900 GB/s per GPU)',
    scaleOut: 'InfiniBand',
    source: 'nvidia.com/en-us/data-center/h200 (same compute as H100 SXM, 141 GB HBM3e); HGX H200 NVSwitch domain of 8; HBM3e 4.8 TB/s; NVLink 4 900 GB/s both ways; HGX H200: a 400 Gb/s adapter per GPU',
  },
  {
    id: 'b200',
    title: 'B200 (DGX/HGX B200, 8 GPUs)',
    nvlinkDomain: 8,
    gpusPerNode: 8,
    hbmGiB: 180,
    bf16Tflops: 2250,
    fp8Tflops: 4500,
    mamf: { bf16: 0.776, fp8: 0.763, source: 'ml-engineering’s Maximum Achievable Matmul FLOPS table (S. Bekman, mamf-finder.py, mean of 100 iterations at the best shape): B200 SXM 1,745 of 2,250 BF16, 3,432.5 of 4,500 FP8' },
    sms: 148,
    hbmTBps: 8.0,
    scaleUpGBps: 900,
    scaleOutGBps: 50,
    scaleUp: 'NVLink 5 (1.8 TB/s per GPU)',
    scaleOut: 'InfiniBand',
    source: 'nvidia.com/en-us/data-center/dgx-b200 (1,440 GB over 8 GPUs; 72 PF FP8 sparse per system); HBM3e 8 TB/s; NVLink 5 1.8 TB/s both ways; DGX B200: eight 400 Gb/s ConnectX-7 adapters, one per GPU',
  },
  {
    id: 'gb200-nvl72',
    title: 'GB200 NVL72 (72-GPU NVLink domain, 4 GPUs per compute tray)',
    nvlinkDomain: 72,
    gpusPerNode: 4,
    hbmGiB: 186,
    bf16Tflops: 2500,
    fp8Tflops: 5000,
    mamf: { bf16: 0.729, fp8: 0.723, source: 'ml-engineering’s Maximum Achievable Matmul FLOPS table (S. Bekman, mamf-finder.py, mean of 100 iterations at the best shape): GB200 1,822 of 2,500 BF16, 3,615.6 of 5,000 FP8' },
    sms: 148,
    hbmTBps: 8.0,
    scaleUpGBps: 900,
    scaleOutGBps: 50,
    scaleUp: 'NVLink 5 through NVLink switch trays (1.8 TB/s per GPU)',
    scaleOut: 'InfiniBand',
    source: 'nvidia.com/en-us/data-center/gb200-nvl72 (360 PF BF16 / 720 PF FP8 sparse per rack, up to 13.4 TB HBM3e over 72 GPUs); HBM3e 8 TB/s; NVLink 5 1.8 TB/s both ways; a 400 Gb/s ConnectX-7 adapter per GPU',
  },
  {
    id: 'gb300-nvl72',
    title: 'GB300 NVL72 (72-GPU NVLink domain, 4 GPUs per compute tray)',
    nvlinkDomain: 72,
    gpusPerNode: 4,
    hbmGiB: 279,
    bf16Tflops: 2500,
    fp8Tflops: 5000,
    mamf: { bf16: 0.729, fp8: 0.723, source: 'ml-engineering’s Maximum Achievable Matmul FLOPS table (S. Bekman, mamf-finder.py, mean of 100 iterations at the best shape): no GB300 figure; the GB200 fractions, 1,822 of 2,500 BF16 and 3,615.6 of 5,000 FP8' },
    sms: 148,
    hbmTBps: 8.0,
    scaleUpGBps: 900,
    scaleOutGBps: 100,
    scaleUp: 'NVLink 5 through NVLink switch trays (1.8 TB/s per GPU)',
    scaleOut: 'InfiniBand',
    source: 'nvidia.com/en-us/data-center/gb300-nvl72 (same 72-GPU NVLink domain as GB200; ~279 GB HBM3e per GPU); HBM3e 8 TB/s; NVLink 5 1.8 TB/s both ways; an 800 Gb/s ConnectX-8 adapter per GPU',
  },
  {
    id: 'mi300x',
    title: 'AMD Instinct MI300X (8-GPU xGMI platform)',
    nvlinkDomain: 8,
    gpusPerNode: 8,
    hbmGiB: 192,
    bf16Tflops: 1307,
    fp8Tflops: 2615,
    mamf: { bf16: 0.601, source: 'ml-engineering’s Maximum Achievable Matmul FLOPS table (S. Bekman, mamf-finder.py, mean of 100 iterations at the best shape): MI300X 781.9 of 1,300 BF16 with ROCm 6.2 (no FP8 figure; BF16 fraction used)' },
    sms: 304,
    hbmTBps: 5.3,
    scaleUpGBps: 448,
    scaleOutGBps: 50,
    scaleUp: 'Infinity Fabric xGMI mesh (fully connected 8 GPUs)',
    scaleOut: 'RoCE or InfiniBand',
    source: 'amd.com/en/products/accelerators/instinct/mi300/mi300x.html (BF16 1,307.4 / FP8 2,614.9 TFLOP/s dense, 192 GB HBM3); HBM3 5.3 TB/s; seven xGMI links of 64 GB/s per direction to the other GPUs; a 400 Gb/s adapter per GPU',
  },
];

/** Used when nothing names a profile: the most common training node today. */
export const DEFAULT_HARDWARE = 'h100-sxm';

export function hardwareById(id: string | undefined): HardwareProfile | undefined {
  if (!id) return undefined;
  const key = id.trim().toLowerCase();
  return HARDWARE.find((h) => h.id === key || ALIASES[key] === h.id);
}

/** Spellings people use for the same profile. */
const ALIASES: Record<string, string> = {
  a100: 'a100-80gb',
  'a100-sxm-80gb': 'a100-80gb',
  'a100-sxm-40gb': 'a100-40gb',
  h100: 'h100-sxm',
  'h100-sxm5': 'h100-sxm',
  'dgx-h100': 'h100-sxm',
  'h200-sxm': 'h200',
  'hgx-h20': 'h20',
  'h20-96gb': 'h20',
  'l40s-48gb': 'l40s',
  'l40s-pcie': 'l40s',
  'dgx-b200': 'b200',
  gb200: 'gb200-nvl72',
  gb300: 'gb300-nvl72',
};

/** What follows the name of a hardware profile that does not exist: the close ones, then every profile. */
export function hardwareSuggestion(id: unknown): string {
  const ids = HARDWARE.map((h) => h.id);
  return `${typeof id === 'string' ? didYouMean(id, ids) : ''}; the profiles are ${ids.join(', ')}`;
}
