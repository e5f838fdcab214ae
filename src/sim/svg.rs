//! Charts written by hand as inline SVG, for the result files (`matrix.svg`) and the HTML report
//! (the reasons: `docs/architecture.md`, "The HTML report"). Every number a chart shows is text,
//! marked with where it came from, like the report's tables; axis labels carry `class="axis"`.
//! They live with the result files, below the report, so that both may draw with them.

use std::fmt::Write as _;

/// Escapes text for HTML (element text and attribute values).
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// A diverging orange–purple scale for a win rate (ColorBrewer's PuOr, 9 classes): orange below
/// 50%, near white at 50%, purple above — readable with every common colour-vision deficiency, and
/// never red against green. Grey when undefined.
pub fn colour(r: f64) -> String {
    const STOPS: [(u8, u8, u8); 9] = [
        (0xb3, 0x58, 0x06),
        (0xe0, 0x82, 0x14),
        (0xfd, 0xb8, 0x63),
        (0xfe, 0xe0, 0xb6),
        (0xf7, 0xf7, 0xf7),
        (0xd8, 0xda, 0xeb),
        (0xb2, 0xab, 0xd2),
        (0x80, 0x73, 0xac),
        (0x54, 0x27, 0x88),
    ];
    if r.is_nan() {
        return "#dddddd".into();
    }
    // 0.2 to 0.8 spans the scale: matchups further from even are all strongly coloured.
    let t = ((r - 0.2) / 0.6).clamp(0.0, 1.0) * 8.0;
    let k = (t.floor() as usize).min(7);
    let f = t - k as f64;
    let mix = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * f).round() as u8;
    let (a, b) = (STOPS[k], STOPS[k + 1]);
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(a.0, b.0),
        mix(a.1, b.1),
        mix(a.2, b.2)
    )
}

/// Whether text on `colour(r)` should be white (the dark ends of the scale).
fn dark(r: f64) -> bool {
    !r.is_nan() && !(0.29..=0.71).contains(&r)
}

/// One cell of a heatmap: the row deck's win rate, and the attributes that mark where its numbers
/// came from (the cell's text: the rate; its title: rate, interval, games).
pub struct Cell {
    pub rate: f64,
    pub even: bool,
    pub mirror: bool,
    /// Attributes of the cell's label (`data-f`, `data-l`, `data-c="win_rate"`).
    pub label_src: String,
    /// Attributes and text of the hover title.
    pub title_src: String,
    pub title: String,
}

/// A win-rate heatmap: `names` in display order, `cells[i][j]` the row deck `i` against the
/// column deck `j`; a colour legend under it.
pub fn heatmap(id: &str, caption: &str, names: &[String], cells: &[Vec<Cell>]) -> String {
    heatmap_sized(id, caption, names, cells).0
}

/// [`heatmap`], with the picture's width and height (for a page that places it, as the standalone
/// `matrix.svg` of `crate::sim::files::matrix::svg` does).
pub fn heatmap_sized(
    id: &str,
    caption: &str,
    names: &[String],
    cells: &[Vec<Cell>],
) -> (String, f64, f64) {
    let f = HeatFrame::new(names);
    let mut s = heat_open(id, caption, &f);
    heat_names(&mut s, &f, names);
    for (i, row) in cells.iter().enumerate() {
        for (j, c) in row.iter().enumerate() {
            heat_cell(&mut s, id, &f, (i, j), c);
        }
    }
    heat_legend(&mut s, id, &f);
    (s, f.w, f.h)
}

/// A heatmap's layout: the cell's size, the margins the deck names need, the picture's size and
/// where the legend starts.
struct HeatFrame {
    cell: f64,
    left: f64,
    top: f64,
    w: f64,
    h: f64,
    legend_y: f64,
}

impl HeatFrame {
    /// The layout for `names` (a row and a column each).
    fn new(names: &[String]) -> HeatFrame {
        let n = names.len();
        let cell = 56.0;
        let longest = names.iter().map(|s| s.chars().count()).max().unwrap_or(4) as f64;
        let left = 16.0 + 7.5 * longest;
        let top = 24.0 + 7.5 * longest * 0.7;
        let w = left + cell * n as f64 + 7.5 * longest * 0.6 + 20.0;
        let legend_y = top + cell * n as f64 + 20.0;
        let h = legend_y + 52.0;
        HeatFrame {
            cell,
            left,
            top,
            w,
            h,
            legend_y,
        }
    }
}

/// The heatmap's opening: the picture, the mirror hatching and the colour scale's gradient.
fn heat_open(id: &str, caption: &str, f: &HeatFrame) -> String {
    let (w, h) = (f.w, f.h);
    format!(
        "<svg class=\"chart\" id=\"{id}\" role=\"img\" aria-label=\"{}\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" font-size=\"12\">\n\
         <defs><pattern id=\"{id}-mirror\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"8\" stroke=\"#999\" stroke-width=\"1.5\"/></pattern>\n\
         <linearGradient id=\"{id}-scale\">{}</linearGradient></defs>\n",
        esc(caption),
        (0..=10)
            .map(|k| format!(
                "<stop offset=\"{}%\" stop-color=\"{}\"/>",
                k * 10,
                colour(k as f64 / 10.0)
            ))
            .collect::<String>()
    )
}

/// The deck names: each at the left of its row and, slanted, above its column.
fn heat_names(s: &mut String, f: &HeatFrame, names: &[String]) {
    let (cell, left, top) = (f.cell, f.left, f.top);
    for (k, name) in names.iter().enumerate() {
        let y = top + cell * k as f64 + cell / 2.0 + 4.0;
        let _ = writeln!(
            s,
            "<text class=\"name\" x=\"{:.0}\" y=\"{y:.0}\" text-anchor=\"end\">{}</text>",
            left - 6.0,
            esc(name)
        );
        let x = left + cell * k as f64 + cell / 2.0;
        let _ = writeln!(
            s,
            "<text class=\"name\" x=\"{x:.0}\" y=\"{:.0}\" transform=\"rotate(-35 {x:.0} {:.0})\">{}</text>",
            top - 8.0,
            top - 8.0,
            esc(name)
        );
    }
}

/// The cell of row `i`, column `j`: its hover title, its colour (hatched for a mirror), its
/// label (bold unless even).
fn heat_cell(s: &mut String, id: &str, f: &HeatFrame, (i, j): (usize, usize), c: &Cell) {
    let cell = f.cell;
    let x = f.left + cell * j as f64;
    let y = f.top + cell * i as f64;
    let class = if c.even { "cell even" } else { "cell" };
    let _ = write!(
        s,
        "<g class=\"{class}\"><title{}>{}</title><rect x=\"{x:.0}\" y=\"{y:.0}\" width=\"{cell:.0}\" height=\"{cell:.0}\" fill=\"{}\" stroke=\"#888\"/>",
        c.title_src,
        esc(&c.title),
        colour(c.rate)
    );
    if c.mirror {
        let _ = write!(
            s,
            "<rect x=\"{x:.0}\" y=\"{y:.0}\" width=\"{cell:.0}\" height=\"{cell:.0}\" fill=\"url(#{id}-mirror)\" stroke=\"#888\"/>"
        );
    }
    let fill = if dark(c.rate) { "#fff" } else { "#000" };
    let mark = if c.even { "≈" } else { "" };
    let label = if c.rate.is_nan() {
        "–".to_string()
    } else {
        format!("{mark}{:.0}%", 100.0 * c.rate)
    };
    let _ = writeln!(
        s,
        "<text{} x=\"{:.0}\" y=\"{:.0}\" text-anchor=\"middle\" fill=\"{fill}\" font-weight=\"{}\">{}</text></g>",
        if c.rate.is_nan() { "" } else { &c.label_src },
        x + cell / 2.0,
        y + cell / 2.0 + 4.0,
        if c.even { "normal" } else { "bold" },
        esc(&label)
    );
}

/// The colour legend under the cells, its explanation, and the picture's end.
fn heat_legend(s: &mut String, id: &str, f: &HeatFrame) {
    let legend_y = f.legend_y;
    let lx = 16.0;
    let _ = writeln!(
        s,
        "<rect x=\"{lx:.0}\" y=\"{legend_y:.0}\" width=\"200\" height=\"12\" fill=\"url(#{id}-scale)\" stroke=\"#888\"/>"
    );
    for (k, t) in ["0%", "50%", "100%"].iter().enumerate() {
        let _ = writeln!(
            s,
            "<text class=\"axis\" x=\"{:.0}\" y=\"{:.0}\" font-size=\"11\" text-anchor=\"middle\">{t}</text>",
            lx + 100.0 * k as f64,
            legend_y + 25.0
        );
    }
    let _ = writeln!(
        s,
        "<text class=\"axis\" x=\"{:.0}\" y=\"{:.0}\" font-size=\"11\">the row deck's win rate: orange loses, white even, purple wins</text>",
        lx + 214.0,
        legend_y + 10.0
    );
    let _ = writeln!(
        s,
        "<text class=\"axis\" x=\"{lx:.0}\" y=\"{:.0}\" font-size=\"11\">≈ (not bold): the 95% interval includes 50% · hatched: mirror matchup · hover a cell for its interval</text>\n</svg>",
        legend_y + 42.0
    );
}

/// One row of an interval chart: a label, then marks (value, low, high) each in a series.
pub struct IRow {
    pub label: String,
    pub marks: Vec<(f64, f64, f64)>,
    /// The text shown at the right of the row (numbers marked like a table cell), if any:
    /// (attributes, text).
    pub text: Option<(String, String)>,
}

/// The series of an interval chart: colour and marker shape (circle, square, diamond), so that
/// series differ in shape as well as in colour.
pub const SERIES: [(&str, &str, &str); 3] = [
    ("#5e3c99", "circle", "ablation"),
    ("#e66101", "square", "IWD"),
    ("#1b7837", "diamond", "third"),
];

/// A marker of `shape` centred at (`x`, `y`), `r` its half size, positions written with `p`
/// decimals.
fn marker(shape: &str, colour: &str, x: f64, y: f64, r: f64, p: usize) -> String {
    match shape {
        "circle" => format!("<circle cx=\"{x:.p$}\" cy=\"{y:.p$}\" r=\"{r}\" fill=\"{colour}\"/>"),
        "square" => format!(
            "<rect x=\"{:.p$}\" y=\"{:.p$}\" width=\"{}\" height=\"{}\" fill=\"{colour}\"/>",
            x - r,
            y - r,
            2.0 * r,
            2.0 * r
        ),
        _ => format!(
            "<polygon points=\"{:.p$},{y:.p$} {x:.p$},{:.p$} {:.p$},{y:.p$} {x:.p$},{:.p$}\" fill=\"{colour}\"/>",
            x - r - 0.5,
            y - r - 0.5,
            x + r + 0.5,
            y + r + 0.5
        ),
    }
}

/// The half width of an axis centred on 0 that holds every mark of `rows` (NaN ends skipped), at
/// least `least`, rounded up to a multiple of 0.05: the axis of a chart of differences.
pub fn centred_span(rows: &[IRow], least: f64) -> f64 {
    let span = rows
        .iter()
        .flat_map(|r| r.marks.iter().flat_map(|m| [m.0, m.1, m.2]))
        .filter(|x| !x.is_nan())
        .fold(least, |a, x| a.max(x.abs()));
    (span * 20.0).ceil() / 20.0
}

/// A horizontal chart of intervals: each row's marks as a dot (or square) on a whisker from low
/// to high, against an axis from `lo` to `hi` (`scale` times the values, with `unit`), a reference
/// line at `reference`. `bars`: draw a bar from the axis's start to each first mark.
#[allow(clippy::too_many_arguments)]
pub fn intervals(
    caption: &str,
    rows: &[IRow],
    (lo, hi): (f64, f64),
    scale: f64,
    unit: &str,
    reference: Option<f64>,
    bars: bool,
    legend: &[&str],
) -> String {
    let f = IntervalFrame::new(rows, (lo, hi), legend);
    let (w, h) = (f.w, f.h);
    let mut s = format!(
        "<svg class=\"chart\" role=\"img\" aria-label=\"{}\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" font-size=\"12\">\n",
        esc(caption)
    );
    interval_axis(&mut s, &f, scale, unit, reference);
    for (k, r) in rows.iter().enumerate() {
        interval_row(&mut s, &f, k, r, bars);
    }
    if !legend.is_empty() {
        interval_legend(&mut s, &f, legend);
    }
    s.push_str("</svg>\n");
    s
}

/// An interval chart's layout: the label column, the plot, the text column, the rows' height,
/// the axis's place and the values at its ends.
struct IntervalFrame {
    left: f64,
    plot: f64,
    per: f64,
    top: f64,
    w: f64,
    h: f64,
    /// Where the axis runs, under the last row.
    axis_y: f64,
    lo: f64,
    hi: f64,
}

impl IntervalFrame {
    /// The layout for `rows` on an axis from `lo` to `hi`, with room for `legend` if any.
    fn new(rows: &[IRow], (lo, hi): (f64, f64), legend: &[&str]) -> IntervalFrame {
        let longest = rows
            .iter()
            .map(|r| r.label.chars().count())
            .max()
            .unwrap_or(4)
            .min(48) as f64;
        let left = 16.0 + 7.0 * longest;
        let plot = 420.0;
        let text_w = if rows.iter().any(|r| r.text.is_some()) {
            190.0
        } else {
            20.0
        };
        let per = if rows.iter().any(|r| r.marks.len() > 1) {
            22.0
        } else {
            20.0
        };
        let top = 14.0;
        let h = top + per * rows.len() as f64 + 40.0 + if legend.is_empty() { 0.0 } else { 18.0 };
        let w = left + plot + text_w;
        let axis_y = top + per * rows.len() as f64 + 4.0;
        IntervalFrame {
            left,
            plot,
            per,
            top,
            w,
            h,
            axis_y,
            lo,
            hi,
        }
    }

    /// The x of value `v` (clamped to the plot).
    fn x(&self, v: f64) -> f64 {
        self.left + self.plot * ((v - self.lo) / (self.hi - self.lo)).clamp(0.0, 1.0)
    }
}

/// The grid and the axis (round ticks of the shown scale: the values times `scale`, with
/// `unit`), and the dashed reference line if any.
fn interval_axis(
    s: &mut String,
    f: &IntervalFrame,
    scale: f64,
    unit: &str,
    reference: Option<f64>,
) {
    let (top, axis_y) = (f.top, f.axis_y);
    for t in nice_ticks(f.lo * scale, f.hi * scale) {
        let v = t / scale;
        let xx = f.x(v);
        let _ = writeln!(
            s,
            "<line x1=\"{xx:.1}\" x2=\"{xx:.1}\" y1=\"{top:.0}\" y2=\"{axis_y:.0}\" stroke=\"#e4e4e4\"/><text class=\"axis\" x=\"{xx:.1}\" y=\"{:.0}\" text-anchor=\"middle\" font-size=\"11\">{}{unit}</text>",
            axis_y + 14.0,
            tick(t)
        );
    }
    if let Some(r) = reference {
        let xx = f.x(r);
        let _ = writeln!(
            s,
            "<line x1=\"{xx:.1}\" x2=\"{xx:.1}\" y1=\"{top:.0}\" y2=\"{axis_y:.0}\" stroke=\"#333\" stroke-dasharray=\"4 3\"/>"
        );
    }
}

/// Row `k`: its label (at most 48 characters), its marks, its text at the right.
fn interval_row(s: &mut String, f: &IntervalFrame, k: usize, r: &IRow, bars: bool) {
    let (left, per) = (f.left, f.per);
    let y0 = f.top + per * k as f64;
    let label: String = r.label.chars().take(48).collect();
    let _ = writeln!(
        s,
        "<text class=\"name\" x=\"{:.0}\" y=\"{:.0}\" text-anchor=\"end\">{}</text>",
        left - 6.0,
        y0 + per / 2.0 + 4.0,
        esc(&label)
    );
    let m = r.marks.len().max(1) as f64;
    for (j, &mark) in r.marks.iter().enumerate() {
        if mark.0.is_nan() {
            continue;
        }
        let y = y0 + per * (j as f64 + 0.5) / m;
        interval_mark(s, f, (y0, y), j, mark, bars && j == 0);
    }
    if let Some((attrs, text)) = &r.text {
        let _ = writeln!(
            s,
            "<text{attrs} x=\"{:.0}\" y=\"{:.0}\">{}</text>",
            left + f.plot + 8.0,
            y0 + per / 2.0 + 4.0,
            esc(text)
        );
    }
}

/// Mark `j` of the row at `y0`, drawn at `y`: the bar to it if `bar`, its whisker from low to
/// high, its dot or square (series `j`).
fn interval_mark(
    s: &mut String,
    f: &IntervalFrame,
    (y0, y): (f64, f64),
    j: usize,
    (v, l, h): (f64, f64, f64),
    bar: bool,
) {
    let x = |v: f64| f.x(v);
    let (lo, per) = (f.lo, f.per);
    let (colour, shape, _) = SERIES[j % SERIES.len()];
    if bar {
        let _ = writeln!(
            s,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#b2abd2\"/>",
            x(lo),
            y0 + 3.0,
            (x(v) - x(lo)).max(0.0),
            per - 6.0
        );
    }
    if !l.is_nan() && !h.is_nan() {
        let _ = writeln!(
            s,
            "<line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"{colour}\" stroke-width=\"1.5\"/>",
            x(l),
            x(h)
        );
    }
    let _ = writeln!(s, "{}", marker(shape, colour, x(v), y, 3.5, 1));
}

/// The legend under the axis: each series' marker and name.
fn interval_legend(s: &mut String, f: &IntervalFrame, legend: &[&str]) {
    let ly = f.h - 8.0;
    let mut lx = f.left;
    for (j, name) in legend.iter().enumerate() {
        let (colour, shape, _) = SERIES[j % SERIES.len()];
        let marker = marker(shape, colour, lx, ly - 4.0, 4.0, 0);
        let _ = writeln!(
            s,
            "{marker}<text class=\"axis\" x=\"{:.0}\" y=\"{ly:.0}\">{}</text>",
            lx + 8.0,
            esc(name)
        );
        lx += 30.0 + 7.0 * name.chars().count() as f64;
    }
}

/// Round tick values from `lo` to `hi`: multiples of 1, 2 or 5 × 10^k, the step that gives 3 to 7
/// of them.
fn nice_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let span = hi - lo;
    if span <= 0.0 || !span.is_finite() {
        return vec![lo];
    }
    let mag = 10f64.powf((span / 4.0).log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * mag)
        .find(|st| span / st <= 6.0)
        .unwrap_or(10.0 * mag);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// A tick label: whole numbers plainly, others with one decimal.
fn tick(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 && v.abs() >= 10_000.0 {
        // Thousands grouped: 1,000,000.
        let digits = format!("{:.0}", v.abs());
        let mut out = String::new();
        for (k, ch) in digits.chars().enumerate() {
            if k > 0 && (digits.len() - k) % 3 == 0 {
                out.push(',');
            }
            out.push(ch);
        }
        if v < 0.0 {
            out.insert(0, '−');
        }
        out
    } else if (v - v.round()).abs() < 1e-9 {
        format!("{:.0}", v).replace('-', "−")
    } else {
        format!("{v:.1}").replace('-', "−")
    }
}

/// One point of a line chart: x, the value with its interval, the hover title (attributes,
/// text), whether it is marked (an accepted swap).
pub struct LPoint {
    pub x: f64,
    pub v: f64,
    pub lo: f64,
    pub hi: f64,
    pub title: (String, String),
    pub marked: bool,
}

/// A line chart of a rate over `x` (0 to the largest x), 0–100% on the y axis scaled to the data,
/// with whiskers and square marks where `marked`.
pub fn line(caption: &str, x_label: &str, points: &[LPoint], refs: &[(f64, String)]) -> String {
    let f = LineFrame::new(points, refs);
    let (w, h) = (f.w, f.h);
    let mut s = format!(
        "<svg class=\"chart\" role=\"img\" aria-label=\"{}\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-size=\"12\">\n",
        esc(caption)
    );
    line_axes(&mut s, &f, x_label);
    line_refs(&mut s, &f, refs);
    line_points(&mut s, &f, points);
    line_legend(&mut s, &f);
    s.push_str("</svg>\n");
    s
}

/// A line chart's size, margins and scales: x from 0 to `xmax`, y from `y0` to `y1` (whole
/// tenths around the data and the reference lines, at least a tenth apart).
struct LineFrame {
    w: f64,
    h: f64,
    l: f64,
    r: f64,
    top: f64,
    bottom: f64,
    xmax: f64,
    y0: f64,
    y1: f64,
}

impl LineFrame {
    /// The frame that shows `points` (with their intervals) and `refs`.
    fn new(points: &[LPoint], refs: &[(f64, String)]) -> LineFrame {
        let (w, h, l, r, top, bottom) = (720.0, 320.0, 56.0, 20.0, 16.0, 52.0);
        let xmax = points.iter().map(|p| p.x).fold(1.0, f64::max);
        let ymin = points
            .iter()
            .map(|p| if p.lo.is_nan() { p.v } else { p.lo })
            .chain(refs.iter().map(|r| r.0))
            .fold(0.5, f64::min);
        let ymax = points
            .iter()
            .map(|p| if p.hi.is_nan() { p.v } else { p.hi })
            .chain(refs.iter().map(|r| r.0))
            .fold(0.5, f64::max);
        let (y0, y1) = (
            ((ymin * 10.0).floor() / 10.0).max(0.0),
            ((ymax * 10.0).ceil() / 10.0).min(1.0),
        );
        let (y0, y1) = if y1 - y0 < 0.1 {
            (y0, y0 + 0.1)
        } else {
            (y0, y1)
        };
        LineFrame {
            w,
            h,
            l,
            r,
            top,
            bottom,
            xmax,
            y0,
            y1,
        }
    }

    fn x(&self, g: f64) -> f64 {
        self.l + (self.w - self.l - self.r) * g / self.xmax
    }

    fn y(&self, v: f64) -> f64 {
        self.top + (self.h - self.top - self.bottom) * (1.0 - (v - self.y0) / (self.y1 - self.y0))
    }
}

/// The y grid with its percentages, the x axis's label and ticks.
fn line_axes(s: &mut String, f: &LineFrame, x_label: &str) {
    let (w, h, l, r, bottom) = (f.w, f.h, f.l, f.r, f.bottom);
    for t in nice_ticks(100.0 * f.y0, 100.0 * f.y1) {
        let v = t / 100.0;
        let yy = f.y(v);
        let _ = writeln!(
            s,
            "<line x1=\"{l}\" x2=\"{:.0}\" y1=\"{yy:.1}\" y2=\"{yy:.1}\" stroke=\"#e4e4e4\"/><text class=\"axis\" x=\"{:.0}\" y=\"{:.1}\" text-anchor=\"end\" font-size=\"11\">{:.0}%</text>",
            w - r,
            l - 6.0,
            yy + 4.0,
            100.0 * v
        );
    }
    let _ = writeln!(
        s,
        "<text class=\"axis\" x=\"{:.0}\" y=\"{:.0}\" text-anchor=\"middle\">{}</text>",
        (l + w - r) / 2.0,
        h - bottom + 32.0,
        esc(x_label),
    );
    for t in nice_ticks(0.0, f.xmax) {
        // The rightmost label ends at the plot's edge instead of running off the picture.
        let anchor = if f.x(t) > w - r - 24.0 {
            "end"
        } else {
            "middle"
        };
        let _ = writeln!(
            s,
            "<text class=\"axis\" x=\"{:.1}\" y=\"{:.0}\" text-anchor=\"{anchor}\" font-size=\"11\">{}</text>",
            f.x(t),
            h - bottom + 14.0,
            tick(t)
        );
    }
}

/// The reference lines, dashed, each with its label.
fn line_refs(s: &mut String, f: &LineFrame, refs: &[(f64, String)]) {
    let (w, l, r) = (f.w, f.l, f.r);
    for (v, label) in refs {
        let yy = f.y(*v);
        let _ = writeln!(
            s,
            "<line x1=\"{l}\" x2=\"{:.0}\" y1=\"{yy:.1}\" y2=\"{yy:.1}\" stroke=\"#e66101\" stroke-dasharray=\"6 4\"/><text class=\"axis\" x=\"{:.0}\" y=\"{:.1}\" text-anchor=\"end\" fill=\"#b35806\" font-size=\"11\">{}</text>",
            w - r,
            w - r - 4.0,
            yy - 4.0,
            esc(label)
        );
    }
}

/// The line through the points, then each point: its whisker, its mark (a square where
/// marked), its hover title.
fn line_points(s: &mut String, f: &LineFrame, points: &[LPoint]) {
    let mut poly = String::new();
    for p in points {
        let _ = write!(poly, "{:.1},{:.1} ", f.x(p.x), f.y(p.v));
    }
    let _ = writeln!(
        s,
        "<polyline points=\"{poly}\" fill=\"none\" stroke=\"#5e3c99\" stroke-width=\"1.5\"/>"
    );
    for p in points {
        let (xx, yy) = (f.x(p.x), f.y(p.v));
        if !p.lo.is_nan() {
            let _ = write!(
                s,
                "<line x1=\"{xx:.1}\" x2=\"{xx:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#5e3c99\"/>",
                f.y(p.lo),
                f.y(p.hi)
            );
        }
        let mark = if p.marked {
            format!(
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"8\" height=\"8\" fill=\"#e66101\"/>",
                xx - 4.0,
                yy - 4.0
            )
        } else {
            format!("<circle cx=\"{xx:.1}\" cy=\"{yy:.1}\" r=\"3\" fill=\"#5e3c99\"/>")
        };
        let _ = writeln!(
            s,
            "<g><title{}>{}</title>{mark}</g>",
            p.title.0,
            esc(&p.title.1)
        );
    }
}

/// The legend under the chart: the dot and the square.
fn line_legend(s: &mut String, f: &LineFrame) {
    let (h, l) = (f.h, f.l);
    let _ = writeln!(
        s,
        "<circle cx=\"{l}\" cy=\"{:.0}\" r=\"4\" fill=\"#5e3c99\"/><text class=\"axis\" x=\"{:.0}\" y=\"{:.0}\" font-size=\"11\">the deck's win rate at each round's end (95% interval)</text><rect x=\"{:.0}\" y=\"{:.0}\" width=\"8\" height=\"8\" fill=\"#e66101\"/><text class=\"axis\" x=\"{:.0}\" y=\"{:.0}\" font-size=\"11\">a round that accepted a swap</text>",
        h - 8.0,
        l + 8.0,
        h - 4.0,
        l + 340.0,
        h - 12.0,
        l + 352.0,
        h - 4.0
    );
}

/// A histogram: bars of `counts` over bin labels, each bar's count written above it.
pub fn histogram(caption: &str, x_label: &str, bins: &[(String, String, u64)]) -> String {
    let (l, top, bottom) = (40.0, 24.0, 48.0);
    let bw = (640.0 / bins.len().max(1) as f64).clamp(14.0, 48.0);
    let w = l + bw * bins.len() as f64 + 20.0;
    let h = 260.0;
    let most = bins.iter().map(|b| b.2).max().unwrap_or(1).max(1) as f64;
    let mut s = format!(
        "<svg class=\"chart\" role=\"img\" aria-label=\"{}\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" font-size=\"10\">\n",
        esc(caption)
    );
    let ph = h - top - bottom;
    for (k, (label, attrs, c)) in bins.iter().enumerate() {
        let bh = ph * *c as f64 / most;
        let x = l + bw * k as f64;
        let _ = writeln!(
            s,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{bh:.1}\" fill=\"#8073ac\"/><text{attrs} x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{c}</text><text class=\"axis\" x=\"{:.1}\" y=\"{:.0}\" text-anchor=\"middle\">{}</text>",
            x + 1.0,
            top + ph - bh,
            bw - 2.0,
            x + bw / 2.0,
            top + ph - bh - 3.0,
            x + bw / 2.0,
            top + ph + 13.0,
            esc(label)
        );
    }
    let _ = writeln!(
        s,
        "<text class=\"axis\" x=\"{:.0}\" y=\"{:.0}\" text-anchor=\"middle\" font-size=\"12\">{}</text></svg>",
        l + bw * bins.len() as f64 / 2.0,
        h - 10.0,
        esc(x_label)
    );
    s
}

/// The win rate over the search (`tune.svg`): the incumbent's rate at the end of each round (with
/// its Wilson interval) against the games played, the accepted candidates' own estimates, and the
/// fresh measurements of the starting and the tuned deck as dashed lines.
pub fn tune(
    name: &str,
    points: &[super::tune::Point],
    accepted: &[super::tune::Accepted],
    start: (f64, f64, f64),
    tuned: (f64, f64, f64),
) -> String {
    let f = TuneFrame {
        w: 720.0,
        h: 410.0,
        l: 60.0,
        r: 20.0,
        top: 40.0,
        bottom: 60.0,
        xmax: points.last().map_or(1, |p| p.games).max(1) as f64,
    };
    let mut s = tune_axes(&f, name);
    for (v, label, colour) in [
        (start, "start, fresh games", "#0072B2"),
        (tuned, "tuned, fresh games", "#D55E00"),
    ] {
        let yy = f.y(v.0);
        let _ = writeln!(
            s,
            "<line x1=\"{l}\" x2=\"{x2}\" y1=\"{yy:.1}\" y2=\"{yy:.1}\" stroke=\"{colour}\" stroke-dasharray=\"6 4\"/><text x=\"{tx}\" y=\"{ty:.1}\" text-anchor=\"end\" fill=\"{colour}\">{label}: {a:.1}% ({b:.1}–{c:.1})</text>",
            l = f.l,
            x2 = f.w - f.r,
            tx = f.w - f.r - 4.0,
            ty = yy - 4.0,
            a = 100.0 * v.0,
            b = 100.0 * v.1,
            c = 100.0 * v.2
        );
    }
    tune_search(&mut s, &f, points, accepted);
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"{}\" fill=\"#009E73\">● incumbent at each round's end (95% Wilson)</text><text x=\"{}\" y=\"{}\" fill=\"#E69F00\">■ accepted swap, search's estimate</text>",
        f.l,
        f.h - 4.0,
        f.l + 320.0,
        f.h - 4.0
    );
    s.push_str("</svg>\n");
    s
}

/// The tuning chart's size, margins and scales.
struct TuneFrame {
    w: f64,
    h: f64,
    l: f64,
    r: f64,
    top: f64,
    bottom: f64,
    /// The games at the right end of the x axis.
    xmax: f64,
}

impl TuneFrame {
    fn x(&self, g: f64) -> f64 {
        self.l + (self.w - self.l - self.r) * g / self.xmax
    }

    fn y(&self, v: f64) -> f64 {
        self.top + (self.h - self.top - self.bottom) * (1.0 - v)
    }
}

/// The tuning chart's opening: the picture, its title, the grid and the axis labels.
fn tune_axes(f: &TuneFrame, name: &str) -> String {
    let (w, h, l, r, bottom) = (f.w, f.h, f.l, f.r, f.bottom);
    // Only `&`, `<` and `>` are escaped in the title (element text), not quotes as [`esc`] does.
    let name = name
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n\
         <text x=\"{l}\" y=\"22\" font-size=\"15\">{name}: win rate against the gauntlet while tuning</text>\n"
    );
    for k in 0..=10 {
        let yy = f.y(k as f64 / 10.0);
        let _ = writeln!(
            s,
            "<line x1=\"{l}\" x2=\"{x2}\" y1=\"{yy:.1}\" y2=\"{yy:.1}\" stroke=\"#ddd\"/><text x=\"{tx}\" y=\"{ty:.1}\" text-anchor=\"end\">{pc}%</text>",
            x2 = w - r,
            tx = l - 6.0,
            ty = yy + 4.0,
            pc = k * 10
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">games played by the search</text><text x=\"{l}\" y=\"{}\">0</text><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
        (l + w - r) / 2.0,
        h - bottom + 30.0,
        h - bottom + 14.0,
        w - r,
        h - bottom + 14.0,
        f.xmax as u64
    );
    s
}

/// The search's points (each round's end, with its interval), their line, and the accepted
/// swaps' own estimates.
fn tune_search(
    s: &mut String,
    f: &TuneFrame,
    points: &[super::tune::Point],
    accepted: &[super::tune::Accepted],
) {
    let mut line = String::new();
    for p in points {
        let (v, lo, hi) = super::tune::rate_ci(p.score, p.n);
        let _ = write!(line, "{:.1},{:.1} ", f.x(p.games as f64), f.y(v));
        let _ = writeln!(
            s,
            "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{1:.1}\" y2=\"{2:.1}\" stroke=\"#009E73\"/><circle cx=\"{0:.1}\" cy=\"{3:.1}\" r=\"3\" fill=\"#009E73\"><title>round {4}: {5:.1}% ({6:.1}–{7:.1}) on {8} games</title></circle>",
            f.x(p.games as f64),
            f.y(lo),
            f.y(hi),
            f.y(v),
            p.round,
            100.0 * v,
            100.0 * lo,
            100.0 * hi,
            p.n
        );
    }
    let _ = writeln!(
        s,
        "<polyline points=\"{line}\" fill=\"none\" stroke=\"#009E73\" stroke-width=\"1.5\"/>"
    );
    for a in accepted {
        if let Some(p) = points.iter().find(|p| p.round == a.round) {
            let v = a.rates().1;
            let _ = writeln!(
                s,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"6\" height=\"6\" fill=\"#E69F00\"><title>round {}: accepted at {:.1}% (the search's own estimate)</title></rect>",
                f.x(p.games as f64) - 3.0,
                f.y(v) - 3.0,
                a.round,
                100.0 * v
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::nice_ticks;

    #[test]
    fn ticks_are_round_steps_inside_the_range() {
        assert_eq!(nice_ticks(-500.0, 300.0), [-400.0, -200.0, 0.0, 200.0]);
        assert_eq!(nice_ticks(0.0, 100.0), [0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
        assert_eq!(
            nice_ticks(-15.0, 15.0),
            [-15.0, -10.0, -5.0, 0.0, 5.0, 10.0, 15.0]
        );
        assert_eq!(nice_ticks(0.0, 9.0), [0.0, 2.0, 4.0, 6.0, 8.0]);
        assert_eq!(nice_ticks(3.0, 3.0), [3.0]);
        assert_eq!(super::tick(1_000_000.0), "1,000,000");
        assert_eq!(super::tick(-25_000.0), "−25,000");
        assert_eq!(super::tick(-400.0), "−400");
        assert_eq!(super::tick(2.5), "2.5");
    }
}
