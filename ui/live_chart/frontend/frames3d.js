// Animation frames of a 3D scene shown without plotly's full redraw (issue 15: < 0.1 s per frame).
//
// Plotly.animate shows a frame of a gl3d scene by redrawing the whole figure: defaults, calc, legend,
// sliders and every WebGL object, about 0.1 s of script per frame in headless Chromium before the scene
// renders. When every frame only moves scatter3d traces (new x, y, z and hover data) in scenes whose
// axis ranges are fixed, each moved trace's scene object takes the new points through its own update
// method (the one the full redraw calls) and the scene renders once. The figure's slider steps and play/pause
// buttons that call "animate" are pointed here: the drawn copy of the layout turns them into "skip"
// steps, whose slider and button events call showFrame and play (the figure a page exports keeps
// plotly's own animation). Any other animated figure is drawn as it is and animates with plotly.
"use strict";

const Frames3d = (() => {
  const AXES = ["xaxis", "yaxis", "zaxis"];
  // What a frame may set on a trace: the points and what their hover shows; name and type only as they are.
  const MOVED = new Set(["x", "y", "z", "customdata", "text", "hovertext"]);
  const KEPT = ["name", "type"];

  function isArray(value) {
    return Array.isArray(value) || ArrayBuffer.isView(value);
  }

  // Whether every frame of spec {data, layout, frames} only moves scatter3d points in fixed scenes.
  function applies(spec) {
    const frames = spec.frames || [];
    if (!frames.length) return false;
    return frames.every((frame) => Array.isArray(frame.traces) && (frame.data || []).length === frame.traces.length
      && frame.traces.every((index, k) => {
        const trace = spec.data[index];
        const coords = frame.data[k];
        if (!trace || trace.type !== "scatter3d") return false;
        if (!Object.keys(coords).every((key) => MOVED.has(key) || KEPT.includes(key))) return false;
        if (KEPT.some((key) => key in coords && coords[key] !== trace[key])) return false;
        if (!["x", "y", "z"].every((axis) => isArray(coords[axis]))) return false;
        const scene = spec.layout[trace.scene || "scene"] || {};
        return AXES.every((axis) => scene[axis] && isArray(scene[axis].range) && scene[axis].autorange !== true);
      }));
  }

  function redirected(items, field) {
    return (items || []).map((item) => Object.assign({}, item, {
      [field]: (item[field] || []).map((entry) => entry.method === "animate" ? Object.assign({}, entry, {method: "skip"})
                                                                              : entry),
    }));
  }

  // A copy of layout whose animate steps and buttons do nothing in plotly (they raise their events only).
  function redirect(layout) {
    const out = Object.assign({}, layout);
    if (layout.sliders) out.sliders = redirected(layout.sliders, "steps");
    if (layout.updatemenus) out.updatemenus = redirected(layout.updatemenus, "buttons");
    return out;
  }

  // The frames player of one chart div; ``enabled`` says whether its current figure uses it.
  function player(gd) {
    let enabled = false;
    let current = null;
    let playing = null;

    function frameOf(step) {
      return step && Array.isArray(step.args) && Array.isArray(step.args[0]) ? step.args[0][0] : undefined;
    }

    function activeFrame() {
      const slider = (gd.layout.sliders || [])[0];
      return slider ? frameOf(slider.steps[slider.active || 0]) : null;
    }

    // Move the figure to frame ``name``: the moved traces' points and hover data in gd.data and gd._fullData (so a
    // later Plotly.react diffs against what is shown), their scene objects, then one render per scene.
    function showFrame(name) {
      const frame = gd._transitionData._frameHash[name];
      if (!frame) return;
      const scenes = new Set();
      frame.traces.forEach((index, k) => {
        const coords = frame.data[k];
        const full = gd._fullData.find((trace) => trace.index === index);
        for (const key of Object.keys(coords).filter((key) => MOVED.has(key))) {
          gd.data[index][key] = coords[key];
          full[key] = coords[key];
        }
        full._length = Math.min(coords.x.length, coords.y.length, coords.z.length);
        const scene = gd._fullLayout[full.scene]._scene;
        scene.traces[full.uid].update(full);
        scenes.add(scene);
      });
      scenes.forEach((scene) => scene.glplot.redraw());
      current = name;
      gd.emit("plotly_animated");
    }

    // Point every slider whose steps show frame ``name`` at that step (as plotly's animate does while playing).
    function moveSliders(name) {
      const update = {};
      (gd.layout.sliders || []).forEach((slider, i) => {
        const step = slider.steps.findIndex((s) => frameOf(s) === name);
        if (step >= 0 && step !== slider.active) update[`sliders[${i}].active`] = step;
      });
      return Object.keys(update).length ? Plotly.relayout(gd, update) : Promise.resolve();
    }

    function stop() {
      if (playing) clearTimeout(playing.timer);
      playing = null;
    }

    // Show ``names`` one after the other, ``duration`` ms per frame (from the start of one to the next).
    function play(names, duration) {
      stop();
      const run = {timer: null};
      playing = run;
      let i = 0;
      const next = async () => {
        if (playing !== run) return;
        if (i >= names.length) {
          playing = null;
          return;
        }
        const start = performance.now();
        showFrame(names[i]);
        await moveSliders(names[i]);
        i += 1;
        run.timer = setTimeout(next, Math.max(0, duration - (performance.now() - start)));
      };
      next();
    }

    // A play button: args[0] null plays from the frame after the current one (from the first when at the
    // end), [null] pauses, a list of names plays those.
    function press(args) {
      const names = gd._transitionData._frames.map((frame) => frame.name);
      const what = args[0];
      const options = args[1] || {};
      const duration = options.frame && typeof options.frame.duration === "number" ? options.frame.duration : 500;
      if (Array.isArray(what) && what.length === 1 && what[0] === null) return stop();
      if (Array.isArray(what)) return play(what.map(String), duration);
      const at = names.indexOf(current === null ? activeFrame() : current);
      const start = options.fromcurrent && at >= 0 && at < names.length - 1 ? at + 1 : 0;
      return play(names.slice(start), duration);
    }

    gd.on("plotly_sliderchange", (event) => {
      if (!enabled || !event.interaction || event.step.method !== "skip") return;
      stop();
      const name = frameOf(event.step);
      if (name !== undefined && name !== current) showFrame(name);
    });
    gd.on("plotly_buttonclicked", (event) => {
      if (enabled && event.button.method === "skip" && Array.isArray(event.button.args)) press(event.button.args);
    });

    return {
      // Called after every draw of a new figure: whether it animates here, and the frame it shows.
      drawn(isEnabled) {
        stop();
        enabled = isEnabled;
        current = enabled ? activeFrame() : null;
      },
      // Frame ``name`` as a click on its slider step shows it: this player's path, or the step's own
      // Plotly.animate call for other figures.
      showFrame(name) {
        if (enabled) return Promise.resolve(showFrame(name));
        const step = (gd.layout.sliders || []).flatMap((slider) => slider.steps).find((s) => frameOf(s) === name);
        return step ? Plotly.animate(gd, ...step.args) : Promise.resolve();
      },
    };
  }

  return {applies, redirect, player};
})();
