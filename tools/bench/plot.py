# SPDX-License-Identifier: GPL-2.0
"""PNG plots with gnuplot (Debian's gnuplot-nox). An experiment describes
panels; this writes one gnuplot script with the data inline and runs it.

A panel is a dict:
  {"kind": "lines", "title", "xlabel", "ylabel", "logx": bool,
   "series": [(name, [(x, y, lo, hi), ...]), ...]}        lines + error bars
  {"kind": "bars", "title", "ylabel", "categories": [label, ...],
   "series": [(name, [(y, lo, hi) or None, ...]), ...]}   clustered bars
  {"kind": "timeline", "title", "xlabel", "ylabel",
   "series": [(name, [(x, y), ...]), ...],                 plain lines, with
   "marks": [(x, label), ...], "span": (x0, x1) or None}   vertical marks and
                                                           a shaded span
Category labels break into lines at spaces.
"""

import shutil
import subprocess


def _q(s):
    return '"%s"' % str(s).replace('"', "'")


def _num(v):
    return "?" if v is None else "%g" % v


def script(panels, title, png):
    out = []
    panels = [dict(p, series=[(n, v) for n, v in p["series"]
                              if any(x is not None for x in v)]) for p in panels]
    term = "pngcairo noenhanced size %d,%d font 'sans,10'" % (
        560 * min(len(panels), 3), 430 * ((len(panels) + 2) // 3))
    out.append("set terminal %s" % term)
    out.append("set output %s" % _q(png))
    out.append('set datafile missing "?"')
    for i, p in enumerate(panels):
        if p["kind"] == "timeline":
            for j, (_, pts) in enumerate(p["series"]):
                out.append("$d%d_%d << EOD" % (i, j))
                out += ["%g %s" % (x, _num(y)) for x, y in pts]
                out.append("EOD")
        elif p["kind"] == "lines":
            for j, (_, pts) in enumerate(p["series"]):
                out.append("$d%d_%d << EOD" % (i, j))
                out += ["%g %s %s %s" % (x, _num(y), _num(lo), _num(hi))
                        for x, y, lo, hi in pts]
                out.append("EOD")
        else:
            out.append("$d%d << EOD" % i)
            for c, cat in enumerate(p["categories"]):
                row = ['"%s"' % str(cat).replace('"', "'").replace(" ", "\\n")]
                for _, vals in p["series"]:
                    y, lo, hi = (vals[c] if c < len(vals) else None) or (None, None, None)
                    row += [_num(y), _num(y if lo is None else lo), _num(y if hi is None else hi)]
                out.append(" ".join(row))
            out.append("EOD")
    rows, cols = (len(panels) + 2) // 3, min(len(panels), 3)
    out.append("set multiplot layout %d,%d title %s font ',12'" % (rows, cols, _q(title)))
    for i, p in enumerate(panels):
        out += ["reset", 'set datafile missing "?"', "set grid",
                "set title %s" % _q(p.get("title", "")),
                "set ylabel %s" % _q(p.get("ylabel", "")),
                "set yrange [0:*]", "set key below horizontal font ',9'"]
        if p["kind"] == "timeline":
            out.append("set xlabel %s" % _q(p.get("xlabel", "")))
            if p.get("span"):
                out.append("set object 1 rect from %g,graph 0 to %g,graph 1 behind "
                           "fc rgb '#ffd8d8' fs solid 0.6 noborder" % p["span"])
            for k, (x, label) in enumerate(p.get("marks", [])):
                out.append("set arrow %d from %g,graph 0 to %g,graph 1 nohead dt 2 lw 1"
                           % (k + 1, x, x))
                out.append("set label %d %s at %g,graph 0.97 left offset 0.5,0 font ',8'"
                           % (k + 1, _q(label), x))
            plots = ["$d%d_%d using 1:2 with lines lw 1.5 title %s" % (i, j, _q(name))
                     for j, (name, _) in enumerate(p["series"])]
        elif p["kind"] == "lines":
            out.append("set xlabel %s" % _q(p.get("xlabel", "")))
            if p.get("logx"):
                out.append("set logscale x 2")
            xs = sorted({x for _, pts in p["series"] for x, *_ in pts})
            if xs:
                out.append("set xtics (%s)" % ", ".join(
                    "%s %g" % (_q(p.get("xticlabels", {}).get(x, "%g" % x)), x) for x in xs))
                lo, hi = xs[0], xs[-1]
                pad = (lambda v, f: v * f) if p.get("logx") else (lambda v, f: v + (f - 1))
                out.append("set xrange [%g:%g]" % (pad(lo, 0.8), pad(hi, 1.25)))
            plots = ["$d%d_%d using 1:2:3:4 with yerrorlines lw 2 pt 7 title %s"
                     % (i, j, _q(name)) for j, (name, _) in enumerate(p["series"])]
        else:
            lines = max(str(c).count(" ") + 1 for c in p["categories"])
            out += ["set bmargin %d" % (lines + 2 + (len(p["series"]) + 1) // 2),
                    "set style data histogram",
                    "set style histogram errorbars gap 1 lw 1",
                    "set style fill solid 0.7 border -1", "set boxwidth 0.9",
                    "set xtics font ',9'", "set bars front"]
            plots = []
            for j, (name, _) in enumerate(p["series"]):
                c = 2 + 3 * j
                plots.append("$d%d using %d:%d:%d%s title %s" % (
                    i, c, c + 1, c + 2, ":xtic(1)" if j == 0 else "", _q(name)))
        if not p["series"]:
            plots = ["NaN notitle"]
            out += ["unset logscale", "set xrange [0:1]", "set yrange [0:1]",
                    "set label 1 'no data' at 0.5,0.5 center"]
        out.append("plot " + ", \\\n  ".join(plots))
    out.append("unset multiplot")
    return "\n".join(out) + "\n"


def render(panels, title, png, gp_path):
    """Write the script to GP_PATH and run gnuplot; returns an error string
    or None."""
    if not panels:
        return "nothing to plot"
    with open(gp_path, "w") as f:
        f.write(script(panels, title, png))
    gp = shutil.which("gnuplot")
    if not gp:
        return "gnuplot is not installed (apt-get install gnuplot-nox): no plot"
    r = subprocess.run([gp, gp_path], capture_output=True, text=True)
    if r.returncode != 0:
        return "gnuplot failed: " + r.stderr.strip()[-500:]
    return None
