// The roofline: the attempt's point (arithmetic intensity, GFLOP/s) under the device's bandwidth and compute ceilings.
import type { BenchmarkingResult, DevicePeaks } from '@kernelforge/sdk';
import { useWidth } from '../hooks/useWidth';
import { formatNumber } from '../lib/format';

/** Drawn at the width it is given (up to MAX_W), so its labels keep their size on a phone. */
const MAX_W = 576;
const MIN_W = 260;
const PAD = { left: 56, right: 16, top: 16, bottom: 40 };

const log = Math.log10;

export function Roofline({ result, peaks }: { result: BenchmarkingResult; peaks: DevicePeaks }) {
  const [ref, measured] = useWidth<HTMLElement>(MAX_W);
  const W = Math.max(MIN_W, Math.min(MAX_W, measured));
  const H = Math.round(Math.min(300, Math.max(220, W * 0.6)));
  const bw = peaks.bandwidth_gbps;
  const fl = peaks.fp32_gflops;
  if (!(bw > 0 && fl > 0 && result.gbps > 0)) return null;
  const intensity = result.gflops / result.gbps; // flop per byte
  const ridge = fl / bw;
  // Decades around the ridge and the point, so both show.
  const xs = [intensity > 0 ? intensity : ridge / 100, ridge];
  const x0 = Math.floor(log(Math.min(...xs)) - 0.5);
  const x1 = Math.ceil(log(Math.max(...xs)) + 0.5);
  const yTop = Math.ceil(log(fl) + 0.3);
  const y0 = Math.floor(Math.min(log(Math.max(result.gflops, 1e-3)), log(bw * 10 ** x0)) - 0.3);
  const x = (v: number) => PAD.left + ((log(v) - x0) / (x1 - x0)) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - (log(v) - y0) / (yTop - y0)) * (H - PAD.top - PAD.bottom);
  const roof = [10 ** x0, ridge, 10 ** x1].map((i) => `${x(i).toFixed(1)},${y(Math.min(fl, i * bw)).toFixed(1)}`);
  const decadesX = Array.from({ length: x1 - x0 + 1 }, (_, i) => x0 + i);
  const decadesY = Array.from({ length: yTop - y0 + 1 }, (_, i) => y0 + i);
  const pointY = Math.max(result.gflops, 10 ** y0);
  return (
    <figure data-testid="roofline" ref={ref}>
      <svg
        width={W}
        height={H}
        viewBox={`0 0 ${W} ${H}`}
        className="block max-w-full text-xs"
        role="img"
        aria-label="Roofline"
      >
        {decadesX.map((d) => (
          <g key={`x${d}`}>
            <line
              x1={x(10 ** d)}
              x2={x(10 ** d)}
              y1={PAD.top}
              y2={H - PAD.bottom}
              className="stroke-slate-200 dark:stroke-slate-800"
            />
            <text
              x={x(10 ** d)}
              y={H - PAD.bottom + 14}
              textAnchor="middle"
              className="fill-slate-500 dark:fill-slate-400"
            >
              {10 ** d >= 1 ? 10 ** d : (10 ** d).toPrecision(1)}
            </text>
          </g>
        ))}
        {decadesY.map((d) => (
          <g key={`y${d}`}>
            <line
              x1={PAD.left}
              x2={W - PAD.right}
              y1={y(10 ** d)}
              y2={y(10 ** d)}
              className="stroke-slate-200 dark:stroke-slate-800"
            />
            <text x={PAD.left - 6} y={y(10 ** d) + 4} textAnchor="end" className="fill-slate-500 dark:fill-slate-400">
              {10 ** d >= 1 ? 10 ** d : (10 ** d).toPrecision(1)}
            </text>
          </g>
        ))}
        <text x={(W + PAD.left) / 2} y={H - 6} textAnchor="middle" className="fill-slate-500 dark:fill-slate-400">
          arithmetic intensity (FLOP/byte)
        </text>
        <text
          x={12}
          y={(H - PAD.bottom + PAD.top) / 2}
          transform={`rotate(-90 12 ${(H - PAD.bottom + PAD.top) / 2})`}
          textAnchor="middle"
          className="fill-slate-500 dark:fill-slate-400"
        >
          GFLOP/s
        </text>
        <polyline
          points={roof.join(' ')}
          fill="none"
          strokeWidth={2.5}
          className="stroke-slate-700 dark:stroke-slate-300"
        />
        <text x={W - PAD.right} y={y(fl) - 5} textAnchor="end" className="fill-slate-600 dark:fill-slate-300">
          {formatNumber(fl, 0)} GFLOP/s
        </text>
        <text x={x(10 ** x0) + 4} y={y(bw * 10 ** x0) - 6} className="fill-slate-600 dark:fill-slate-300">
          {formatNumber(bw, 0)} GB/s
        </text>
        <circle
          cx={x(intensity)}
          cy={y(pointY)}
          r={6}
          className="fill-indigo-500 stroke-white dark:stroke-slate-900"
          strokeWidth={2}
        >
          <title>{`${formatNumber(intensity, 3)} FLOP/byte, ${formatNumber(result.gflops, 2)} GFLOP/s`}</title>
        </circle>
      </svg>
      <figcaption className="mt-1 text-xs text-slate-500 dark:text-slate-400">
        This attempt: {formatNumber(intensity, 3)} FLOP/byte at {formatNumber(result.gflops, 2)} GFLOP/s and{' '}
        {formatNumber(result.gbps, 1)} GB/s, {formatNumber(result.fraction_of_peak * 100, 1)}% of the nearer ceiling (
        {intensity < ridge ? 'memory bound' : 'compute bound'}; peaks {peaks.source}).
      </figcaption>
    </figure>
  );
}
