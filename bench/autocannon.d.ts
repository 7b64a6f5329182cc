// The part of autocannon's API the benchmark uses (the package ships no types).
declare module "autocannon" {
  type Histogram = {
    min: number;
    max: number;
    average: number;
    stddev: number;
    total: number;
    p2_5: number;
    p50: number;
    p75: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
    p99_99: number;
    p99_999: number;
  };
  export type Options = {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    pipelining?: number;
    workers?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    title?: string;
    /** Each request in turn; setupRequest may change the request before it is sent (e.g. its path). */
    requests?: { setupRequest?: (req: Request) => Request }[];
  };
  export type Request = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
  export type Result = {
    title?: string;
    url: string;
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    "2xx": number;
    start: Date;
    finish: Date;
    connections: number;
    statusCodeStats: Record<string, { count: number }>;
  };
  function autocannon(options: Options): Promise<Result> & { stop(): void };
  export default autocannon;
}
