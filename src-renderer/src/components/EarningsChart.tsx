/**
 * The Overview's running total of net earnings, drawn with recharts. Its own module so that recharts (most
 * of the console's code by size) is read after the first screen shows, not before (Overview loads it lazily).
 */
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ChartPoint } from '../model/earnings';
import { formatTime } from '../model/time-zone';
import { useTimeZone } from './TimeText';

export default function EarningsChart({ points, tick }: { points: ChartPoint[]; tick: (ms: number) => string }) {
  const timeZone = useTimeZone();
  return (
    <ResponsiveContainer width="100%" height={220}>
      <AreaChart data={points} margin={{ top: 8, right: 16, bottom: 4, left: 16 }}>
        <CartesianGrid stroke="#252d38" />
        <XAxis dataKey="at" type="number" scale="time" domain={['dataMin', 'dataMax']} tickFormatter={tick} stroke="#8a96a8" fontSize={12} />
        <YAxis
          tickFormatter={(sol: number) => sol.toPrecision(3)}
          stroke="#8a96a8"
          fontSize={12}
          width={70}
          label={{ value: 'net SOL', angle: -90, position: 'insideLeft', fill: '#8a96a8', fontSize: 12 }}
        />
        <Tooltip
          labelFormatter={(ms) => formatTime(Number(ms), timeZone)}
          formatter={(value) => [`${Number(value).toFixed(9)} SOL`, 'net earnings so far']}
          contentStyle={{ background: '#161b22', border: '1px solid #2a3340' }}
        />
        <Area type="stepAfter" dataKey="netSol" stroke="#3fb950" fill="#3fb95033" isAnimationActive={false} />
      </AreaChart>
    </ResponsiveContainer>
  );
}
