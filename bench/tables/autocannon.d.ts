// The parts of autocannon's API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  type Histogram = { p50: number; p99: number; max: number; average: number; total: number };
  type Options = { url: string; connections?: number; duration?: number; timeout?: number; headers?: Record<string, string> };
  type Result = { latency: Histogram; requests: Histogram; non2xx: number; errors: number; timeouts: number };
  export default function autocannon(options: Options): Promise<Result>;
}
