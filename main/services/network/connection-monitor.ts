// Probes the network's /health on a schedule and reports reachability and round-trip latency.
import type { Clock, TimerHandle } from '../../../shared/clock';
import type { HttpFetch } from '../../exchange/http';

export interface HealthReading {
  readonly up: boolean;
  readonly latencyMs: number | null;
  readonly detail: string | null;
}

export interface ConnectionMonitorOptions {
  readonly fetch: HttpFetch;
  readonly clock: Clock;
  readonly baseUrl: () => string | null;
  readonly intervalMs?: number;
  readonly timeoutMs?: number;
  readonly onReading: (reading: HealthReading) => void;
}

export class ConnectionMonitor {
  private timer: TimerHandle | null = null;
  private running = false;

  constructor(private readonly options: ConnectionMonitorOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.probe();
  }

  stop(): void {
    this.running = false;
    if (this.timer !== null) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  /** Probe now (after a reconnect, for instance) instead of waiting for the next tick. */
  async probe(): Promise<HealthReading> {
    if (this.timer !== null) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
    const reading = await this.measure();
    this.options.onReading(reading);
    if (this.running) this.timer = this.options.clock.setTimeout(() => void this.probe(), this.options.intervalMs ?? 5000);
    return reading;
  }

  private async measure(): Promise<HealthReading> {
    const base = this.options.baseUrl();
    if (base === null) return { up: false, latencyMs: null, detail: 'The network has no address yet' };
    const started = this.options.clock.now();
    const response = await this.options.fetch({ method: 'GET', url: `${base}/health`, timeoutMs: this.options.timeoutMs ?? 4000 });
    const latencyMs = this.options.clock.now() - started;
    if (!response.ok) return { up: false, latencyMs: null, detail: response.message };
    const body = response.value.body as { status?: unknown } | null;
    if (response.value.status !== 200 || body?.status !== 'ok') {
      return { up: false, latencyMs, detail: `The exchange reports it is not healthy (HTTP ${response.value.status})` };
    }
    return { up: true, latencyMs, detail: null };
  }
}
