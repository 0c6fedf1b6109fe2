// ECharts server-side: an option → an SVG string, with no DOM and no canvas. Text is measured with the font resvg
// will draw it in (./font.ts), so labels that ECharts decides fit do fit, and the same option gives the same SVG on
// every machine. Only the chart types and components the visualizations use are registered.

import * as echarts from 'echarts/core';
import { BarChart, FunnelChart, GaugeChart, LineChart, PieChart, ScatterChart } from 'echarts/charts';
import { GraphicComponent, GridComponent, LegendComponent, MarkLineComponent, TitleComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
import type { EChartsOption } from 'echarts';
import { FONT_FAMILY, measureCssFont } from './font.js';

echarts.use([BarChart, LineChart, PieChart, GaugeChart, FunnelChart, ScatterChart, GridComponent, LegendComponent, MarkLineComponent, GraphicComponent, TitleComponent, SVGRenderer]);
echarts.setPlatformAPI({ measureText: (text, font) => ({ width: measureCssFont(text, font) }) });

export function chartSvg(option: EChartsOption, width: number, height: number): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({ ...option, animation: false, textStyle: { fontFamily: FONT_FAMILY, ...(option.textStyle as object | undefined) } });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}
