import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  /** One value per x (seconds since the epoch), null where the series has none. */
  values: (number | null)[];
}

const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2'];

/** A time-series chart (uPlot: small, fast, canvas) that follows its container's width. */
export default function Chart({ x, series, title, range }: { x: number[]; series: ChartSeries[]; title: string; range: [number, number] }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = container.current;
    if (element === null) return;
    const plot = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height: 280,
        series: [{}, ...series.map((entry, index) => ({ label: entry.label, stroke: COLORS[index % COLORS.length], width: 2, points: { show: true, size: 6 } }))],
        axes: [{}, {}],
        // The chosen time range, not the data's extent (a single point would otherwise span years).
        scales: { x: { time: true, range: () => range } },
      },
      [x, ...series.map((entry) => entry.values)] as uPlot.AlignedData,
      element,
    );
    const observer = new ResizeObserver(() => plot.setSize({ width: Math.max(280, element.clientWidth), height: 280 }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [x, series, range]);
  return <div ref={container} className="chart" role="img" aria-label={title} />;
}
