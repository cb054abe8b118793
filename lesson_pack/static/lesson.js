// The Lesson pack's page: one section per step of window.LESSON (lesson-data.js), Next/Back and the arrow keys,
// the open step in the address fragment (#step-3), predict-then-reveal, and the "which data set?" game on its
// precomputed rounds. Every text from the data is set as text, never as markup.
"use strict";
(function () {
  const steps = window.LESSON.steps;
  const CONFIG = {responsive: true, displaylogo: false};
  const PROJECTED = 0.6;
  const root = document.getElementById("steps");
  const back = document.getElementById("back");
  const next = document.getElementById("next");
  const position = document.getElementById("position");
  const sections = [];
  let open = -1;

  function make(tag, text, attributes) {
    const element = document.createElement(tag);
    if (text !== undefined && text !== null) element.textContent = text;
    Object.entries(attributes || {}).forEach(([name, value]) => element.setAttribute(name, value));
    return element;
  }

  // A chart's place, drawn (once) by draw().
  function chart(parent, figure, label) {
    const div = make("div", null, {class: "chart", role: "figure", "aria-label": label});
    parent.appendChild(div);
    return {div: div, figure: figure, drawn: null};
  }

  // Plotly keeps what it computes in the objects it is given: each drawing gets its own copy of the figure; on a
  // large screen (a projector) the chart is at least PROJECTED of the window's height.
  function copy(figure) {
    const copied = structuredClone(figure);
    if (window.innerWidth >= 1200 && copied.layout.height) {
      copied.layout.height = Math.max(copied.layout.height, Math.round(PROJECTED * window.innerHeight));
    }
    return copied;
  }

  function draw(box) {
    if (!box.drawn) {
      const figure = copy(box.figure);
      box.drawn = Plotly.newPlot(box.div, figure.data, figure.layout, CONFIG)
        .then(() => (figure.frames ? Plotly.addFrames(box.div, figure.frames) : null));
    }
    return box.drawn;
  }

  // Every step's charts, drawn one after the other in their parked sections once the open step's are, so that
  // a step switch only swaps which section shows.
  async function drawAhead() {
    for (const {charts} of sections) {
      for (const box of charts) {
        await draw(box);
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    }
  }

  // The chart's ε and n sliders: each value redraws the chart with its precomputed figure (null: the step's own);
  // moving one puts the others back on the step's value.
  function sliders(parent, box, step) {
    const inputs = step.sliders.map((slider, which) => {
      const id = `slider-${step.number}-${which}`;
      const row = make("div", null, {class: "slider"});
      const label = make("label", null, {for: id});
      const input = make("input", null, {type: "range", id: id, min: "0", max: String(slider.values.length - 1),
                                         step: "1", value: String(slider.own)});
      const words = (index) => `${slider.label} = ${slider.values[index]}` +
        (index === slider.own ? " (the step's)" : "");
      const set = (index) => {
        input.value = String(index);
        label.textContent = words(index);
        input.setAttribute("aria-valuetext", words(index));
      };
      input.addEventListener("input", () => {
        const index = Number(input.value);
        inputs.forEach((other, at) => { if (at !== which) other.set(step.sliders[at].own); });
        set(index);
        const figure = copy(slider.figures[index] || box.figure);
        box.drawn = box.drawn.then(() => Plotly.react(box.div, figure.data, figure.layout, CONFIG));
      });
      set(slider.own);
      row.append(label, input);
      parent.appendChild(row);
      return {set: set};
    });
    if (inputs.length) {
      parent.appendChild(make("p", "Each value on a slider redraws the chart as the full page draws it there (its " +
        "own run, the same seed); the answer is the run at the step's own value.", {class: "caption"}));
    }
  }

  function answerText(step, box, guess) {
    const right = guess === step.right;
    const verdict = right ? "Right." : guess === null ? "No guess yet." : "Not quite.";
    box.className = right ? "answer right" : "answer";
    box.replaceChildren(verdict + " The answer: ", make("strong", step.choices[step.right]), ". " + step.numbers);
  }

  function game(section, data, revealed) {
    const panel = make("div", null, {class: "game"});
    panel.appendChild(make("p", `Which data set? D holds ${data.n} records (grey); D′ is D with the last one moved ` +
      `across the cap. The mechanism released the mean of one of them at ε = ${data.epsilon}: which?`));
    const scene = chart(panel, data.scene, "The game's sphere: the records, both means and this round's release");
    panel.appendChild(make("p", "Blue: this round's release. Black diamonds: the mean of D (filled) and of D′ " +
      `(open). Grey: the records of D and, moved, D′'s last one. The pack carries ${data.rounds.length} rounds ` +
      `dealt from seed ${data.seed}; after the last they repeat.`, {class: "caption"}));
    const buttons = make("div", null, {class: "guesses"});
    const last = make("p", null, {"aria-live": "polite"});
    const tally = make("p");
    let round = 0, hits = 0, played = 0;
    const show = () => {
      tally.textContent = "The class: " + (played ? `${hits} of ${played} right ` +
        `(${(100 * hits / played).toFixed(1)}%)` : "no rounds yet") + `. Ceiling e^ε/(1 + e^ε) = ${data.ceiling}.`;
    };
    ["D", "D′"].forEach((name, side) => {
      const button = make("button", `It came from ${name}`, {type: "button"});
      button.addEventListener("click", () => {
        const dealt = data.rounds[round];
        const hit = dealt.side === side;
        hits += hit ? 1 : 0;
        played += 1;
        last.textContent = `The last release came from ${["D", "D′"][dealt.side]}: the guess was ` +
          (hit ? "right." : "wrong.");
        round = (round + 1) % data.rounds.length;
        const now = data.rounds[round];
        Plotly.restyle(scene.div, {x: [now.x], y: [now.y], z: [now.z], customdata: [now.customdata]},
          [data.release_trace]);
        show();
      });
      buttons.appendChild(button);
    });
    const attackers = [
      make("p", `The best possible attacker (likelihood-ratio test): ${data.best}.`),
      make("p", `A broken mechanism with the noise halved: ${data.broken}, above the ceiling: the Audit page of ` +
        "the app flags such mechanisms with the same measurement.")];
    panel.append(buttons, last, tally, ...attackers);
    revealed.push(...attackers);
    show();
    section.appendChild(panel);
    return scene;
  }

  function build(step, index) {
    const section = make("section", null, {id: `lesson-step-${index + 1}`, "aria-labelledby": `title-${index + 1}`});
    section.className = "parked";
    section.appendChild(make("h2", `${step.number} · ${step.title}`, {id: `title-${index + 1}`}));
    const charts = [chart(section, step.chart, `Chart of step ${step.number}: ${step.title}`)];
    sliders(section, charts[0], step);
    const choices = make("fieldset");
    const legend = make("legend");
    legend.append(make("strong", "Predict:"), " " + step.question);
    choices.appendChild(legend);
    step.choices.forEach((choice, option) => {
      const label = make("label");
      const input = make("input", null, {type: "radio", name: `guess-${index + 1}`, value: String(option)});
      label.append(input, " " + choice);
      choices.appendChild(label);
    });
    const reveal = make("button", "Reveal", {type: "button", class: "primary"});
    const answer = make("div", null, {class: "answer", "aria-live": "polite"});
    section.append(choices, reveal, answer);
    // What answers the question, shown only after Reveal: the answer, the game's attackers, the takeaway.
    const revealed = [answer];
    if (step.game) charts.push(game(section, step.game, revealed));
    const takeaway = make("p", null, {class: "takeaway"});
    takeaway.append(make("strong", step.headline + "."), " " + step.takeaway);
    section.appendChild(takeaway);
    revealed.push(takeaway);
    revealed.forEach((element) => { element.hidden = true; });
    const guess = () => {
      const checked = choices.querySelector("input:checked");
      return checked ? Number(checked.value) : null;
    };
    reveal.addEventListener("click", () => {
      answerText(step, answer, guess());
      revealed.forEach((element) => { element.hidden = false; });
    });
    choices.addEventListener("change", () => { if (!answer.hidden) answerText(step, answer, guess()); });
    root.appendChild(section);
    return {section: section, charts: charts};
  }

  // Open step ``index`` (0-based); resolves when its charts are drawn.
  function go(index) {
    index = Math.min(Math.max(index, 0), steps.length - 1);
    if (index !== open) {
      if (open >= 0) sections[open].section.className = "parked";
      open = index;
      sections[open].section.className = "";
      position.textContent = `Step ${index + 1} of ${steps.length}`;
      back.disabled = index === 0;
      next.disabled = index === steps.length - 1;
      if (location.hash !== `#step-${index + 1}`) history.replaceState(null, "", `#step-${index + 1}`);
    }
    window.lessonPack.ready = Promise.all(sections[open].charts.map(draw));
    return window.lessonPack.ready;
  }

  function fromAddress() {
    const match = /^#step-(\d+)$/.exec(location.hash);
    const number = match ? Number(match[1]) : 1;
    return number >= 1 && number <= steps.length ? number - 1 : 0;
  }

  window.lessonPack = {go: go, ready: Promise.resolve()};
  steps.forEach((step, index) => sections.push(build(step, index)));
  back.addEventListener("click", () => go(open - 1));
  next.addEventListener("click", () => go(open + 1));
  window.addEventListener("hashchange", () => go(fromAddress()));
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName)) return;
    if (event.key === "ArrowLeft") go(open - 1);
    else if (event.key === "ArrowRight") go(open + 1);
  });
  go(fromAddress()).then(drawAhead);
})();
