// Types of refract-profile.mjs: the profile store's layout (docs/profile.schema.json).

export const FORMAT: "refract-profile-store";
export const SCHEMA_VERSION: 2;

export class ProfileError extends Error {}

export interface Adapter {
  key: string;
  vendor: string;
  architecture: string;
  device: string;
  vendor_id: number;
  device_id: number;
  driver: string;
  backend: string;
  subgroup_min_size: number;
  subgroup_max_size: number;
}

export interface Choice {
  /** The op's axis values by name (whole numbers). */
  params: Record<string, number>;
  row: string;
  /** A dispatch's median, 10th and 90th percentile times [ms]. */
  median_ms: number;
  p10_ms: number;
  p90_ms: number;
  /** How much slower the runner-up was (0.05 = 5 %). */
  runner_up_margin: number | null;
  over_default: number | null;
  over_seed: number | null;
}

export interface Cliff {
  axis: string;
  at: number;
  reason: string;
}

export interface Stamp {
  refract_version: string;
  dawn_package: string;
  kernels: string[];
  kernel_hash: string;
  axes: string[];
  axes_hash: string;
  measured_at: string;
}

export interface Entry {
  sweep: string;
  kernel: string;
  variant: string;
  problem: string;
  shape: Record<string, number>;
  winner: Choice;
  winner_default_limits: Choice | null;
  cliffs: Cliff[];
  stamp: Stamp;
  /** The configurations the winner was chosen from, in name order; null: not recorded (schema 1). */
  grid: string[] | null;
}

export interface AdapterProfile {
  adapter: Adapter;
  entries: Entry[];
}

export interface Store {
  profiles: AdapterProfile[];
}

export interface Query {
  adapter_key: string;
  kernel: string;
  /** "" or absent: any variant. */
  variant?: string;
  /** "" or absent: by shape only. */
  problem?: string;
  shape?: Record<string, number>;
  default_limits?: boolean;
  /** What the caller runs; an entry whose stamp differs is stale. Absent: not compared. */
  dawn_package?: string;
  kernel_hash?: string;
  axes_hash?: string;
}

export interface Stale {
  problem: string;
  reason: string;
}

export interface Answer {
  choice: Choice | null;
  entry: Entry | null;
  /** false: the nearest swept shape, named in `note`. */
  exact: boolean;
  note: string;
  stale: Stale[];
}

export const MAX_BYTES: number;
export function parseStore(input: string | Uint8Array | ArrayBuffer): Store;
export function staleReason(entry: Entry, query: Query): string | null;
export function lookup(store: Store, query: Query): Answer;
export function replacementProblem(older: Entry, newer: Entry): string | null;
export function merge(base: Store, incoming: Store, notes?: string[] | null): Store;

/** The key the adapter's other fields make (its own `key` not read), as the C++ AdapterKeyOf. */
export function adapterKeyOf(adapter: Omit<Adapter, "key"> & { key?: string }): string;

/** The stamp of the kernels `kernels` ({name, text} each), as the C++ KernelHash: what a query's
 * `kernel_hash` holds for a kernel tuned with `refract tune` (its WGSL file and "<spec>.spec"). */
export function kernelHash(kernels: { name: string; text: string }[]): Promise<string>;
