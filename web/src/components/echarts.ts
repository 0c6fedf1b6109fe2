// ECharts for the browser, with only what src/visualization's descriptions use (the same list as the server's
// src/notify/render/echarts-svg.ts) plus the tooltip, drawn as SVG: the same output as the server's PNGs, and
// the drawn points are elements a test (or an assistive tool) can find.

import * as echarts from 'echarts/core';
import { BarChart, FunnelChart, GaugeChart, LineChart, PieChart, ScatterChart } from 'echarts/charts';
import { GraphicComponent, GridComponent, LegendComponent, MarkLineComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';

echarts.use([BarChart, LineChart, PieChart, GaugeChart, FunnelChart, ScatterChart, GridComponent, LegendComponent, MarkLineComponent, GraphicComponent, TitleComponent, TooltipComponent, SVGRenderer]);

export { echarts };
