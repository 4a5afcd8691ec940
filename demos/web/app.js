// The browser sandbox's page: scene list, 60 Hz loop, canvas drawing and the
// mouse and keys, over web_api.cpp's C functions (the physics, the camera and
// the tools are the native sandbox's, compiled to WebAssembly).
// index.html?test=1 runs the self-test instead (tests/web/web_test.sh).
"use strict";

var Module = {
  onRuntimeInitialized: function () { Sandbox.start(); },
};

const Sandbox = (() => {
  const params = new URLSearchParams(location.search);
  const canvas = document.getElementById("canvas");
  const ctx = canvas.getContext("2d");
  const stats = document.getElementById("stats");
  const errorBox = document.getElementById("error");
  const list = document.getElementById("scenes");
  const source = document.getElementById("source");
  let api = null;
  let playing = true;
  let stepMs = 0;
  let pointer = { x: 0, y: 0, inside: false };
  let dragging = false, panning = false;
  let lastFrame = 0;

  function bind() {
    const f = (name, ret, args) => Module.cwrap(name, ret, args);
    api = {
      list: f("web_list_scenes", "string", ["string"]),
      open: f("web_open", "number", ["string"]),
      loadText: f("web_load_text", "number", ["string", "string"]),
      error: f("web_error", "string", []),
      restart: f("web_restart", "number", []),
      step: f("web_step", null, ["number"]),
      steps: f("web_steps", "number", []),
      bodies: f("web_body_count", "number", []),
      hash: f("web_hash", "string", []),
      name: f("web_scene_name", "string", []),
      viewport: f("web_viewport", null, ["number", "number"]),
      resetView: f("web_reset_view", null, []),
      zoom: f("web_zoom", null, ["number", "number", "number"]),
      pan: f("web_pan", null, ["number", "number"]),
      camera: f("web_camera", "number", ["number"]),
      spawn: f("web_spawn", null, ["number", "number", "number"]),
      dragBegin: f("web_drag_begin", "number", ["number", "number"]),
      dragMove: f("web_drag_move", null, ["number", "number"]),
      dragEnd: f("web_drag_end", null, []),
      grabbed: f("web_grabbed_position", "number", ["number"]),
      lastDynamic: f("web_last_dynamic_position", "number", ["number"]),
      draw: f("web_draw", "number", []),
      drawData: f("web_draw_data", "number", []),
    };
  }

  // ---- scenes ------------------------------------------------------------------
  function scenes() {
    return (api.list("/scenes") + api.list("/bench")).split("\n").filter((s) => s.length > 0);
  }

  function showError(text) { errorBox.textContent = text; }

  function open(path) {
    if (!api.open(path)) { showError(api.error()); return false; }
    showError("");
    try {
      source.value = new TextDecoder().decode(FS.readFile(path));
    } catch (e) { source.value = ""; }
    resize();
    api.resetView();
    return true;
  }

  // ---- drawing -----------------------------------------------------------------
  function resize() {
    const w = canvas.clientWidth, h = canvas.clientHeight;
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
    api.viewport(w, h);
  }

  function colour(c, alpha) {
    return "rgba(" + ((c >> 16) & 255) + "," + ((c >> 8) & 255) + "," + (c & 255) + "," + alpha + ")";
  }

  function draw() {
    resize();
    const w = canvas.width, h = canvas.height;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = "#1e2027";
    ctx.fillRect(0, 0, w, h);
    // World metres to pixels: the Camera's mapping (y up).
    const cx = api.camera(0), cy = api.camera(1), scale = api.camera(3);
    ctx.setTransform(scale, 0, 0, -scale, w / 2 - cx * scale, h / 2 + cy * scale);
    ctx.lineWidth = 1.5 / scale;
    ctx.lineJoin = "round";
    const n = api.draw();
    const d = new Float32Array(Module.HEAPF32.buffer, api.drawData(), n);
    for (let i = 0; i < n;) {
      const kind = d[i], c = d[i + 1], count = d[i + 2], radius = d[i + 3];
      const p = i + 4;
      i = p + 2 * count;
      ctx.strokeStyle = colour(c, 1);
      ctx.fillStyle = colour(c, 0.35);
      ctx.beginPath();
      if (kind === 1) {  // polygon (rounded when radius > 0)
        for (let k = 0; k < count; ++k) ctx[k ? "lineTo" : "moveTo"](d[p + 2 * k], d[p + 2 * k + 1]);
        ctx.closePath();
        if (radius > 0) { ctx.lineWidth = 2 * radius; ctx.stroke(); ctx.lineWidth = 1.5 / scale; }
        ctx.fill(); ctx.stroke();
      } else if (kind === 2) {  // circle with its rotation mark
        ctx.arc(d[p], d[p + 1], radius, 0, 2 * Math.PI);
        ctx.fill(); ctx.stroke();
        ctx.beginPath(); ctx.moveTo(d[p], d[p + 1]); ctx.lineTo(d[p + 2], d[p + 3]); ctx.stroke();
      } else if (kind === 3) {  // capsule
        const ax = d[p], ay = d[p + 1], bx = d[p + 2], by = d[p + 3];
        const a = Math.atan2(by - ay, bx - ax);
        ctx.arc(bx, by, radius, a - Math.PI / 2, a + Math.PI / 2);
        ctx.arc(ax, ay, radius, a + Math.PI / 2, a + 3 * Math.PI / 2);
        ctx.closePath(); ctx.fill(); ctx.stroke();
      } else if (kind === 4) {  // segment: chains, joints
        ctx.moveTo(d[p], d[p + 1]); ctx.lineTo(d[p + 2], d[p + 3]); ctx.stroke();
      } else if (kind === 5) {  // point (size in pixels)
        const s = radius / scale;
        ctx.fillStyle = colour(c, 1);
        ctx.fillRect(d[p] - s / 2, d[p + 1] - s / 2, s, s);
      }
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    stats.textContent = api.name() + "  bodies " + api.bodies() + "  step " + stepMs.toFixed(2) +
      " ms  steps " + api.steps() + (playing ? "" : "  (paused)");
  }

  function stepTimed(n) {
    const t0 = performance.now();
    api.step(n);
    if (n > 0) stepMs = (performance.now() - t0) / n;
  }

  // 60 Hz: one step per 1/60 s of wall time, at most four per frame.
  function frame(now) {
    if (playing) {
      const due = lastFrame === 0 ? 1 : Math.min(4, Math.round((now - lastFrame) / (1000 / 60)));
      if (due > 0) { stepTimed(due); lastFrame = now; }
    } else {
      lastFrame = 0;
    }
    draw();
    requestAnimationFrame(frame);
  }

  // ---- input: pointer events, the same path for the mouse and the self-test --------
  function tool() { return document.querySelector("input[name=tool]:checked").value; }

  function pointerDown(e) {
    const x = e.offsetX, y = e.offsetY;
    pointer = { x, y, inside: true };
    if (e.button !== 0) { panning = true; return; }
    const t = tool();
    if (t === "drag") {
      dragging = api.dragBegin(x, y) === 1;
      panning = !dragging;
    } else {
      api.spawn(Number(t), x, y);
    }
  }
  function pointerMove(e) {
    const x = e.offsetX, y = e.offsetY;
    if (panning) api.pan(x - pointer.x, y - pointer.y);
    pointer = { x, y, inside: true };
    if (dragging) api.dragMove(x, y);
  }
  function pointerUp() {
    if (dragging) api.dragEnd();
    dragging = false;
    panning = false;
  }

  function keyDown(e) {
    if (e.target === source) return;
    const k = e.key.toLowerCase();
    const at = [pointer.x, pointer.y];
    if (k === " ") { playing = !playing; e.preventDefault(); }
    else if (k === "s") { playing = false; stepTimed(1); }
    else if (k === "r") api.restart();
    else if (k === "f") api.resetView();
    else if (k === "1") api.spawn(0, ...at);
    else if (k === "2") api.spawn(1, ...at);
    else if (k === "3") api.spawn(2, ...at);
    else if (k === "b") api.spawn(3, ...at);
  }

  function wire() {
    canvas.addEventListener("pointerdown", pointerDown);
    canvas.addEventListener("pointermove", pointerMove);
    canvas.addEventListener("pointerup", pointerUp);
    canvas.addEventListener("pointerleave", pointerUp);
    canvas.addEventListener("contextmenu", (e) => e.preventDefault());
    canvas.addEventListener("wheel", (e) => {
      api.zoom(e.offsetX, e.offsetY, Math.pow(1.15, -Math.sign(e.deltaY)));
      e.preventDefault();
    }, { passive: false });
    window.addEventListener("keydown", keyDown);
    document.getElementById("pause").onclick = () => { playing = !playing; };
    document.getElementById("step").onclick = () => { playing = false; stepTimed(1); };
    document.getElementById("restart").onclick = () => api.restart();
    document.getElementById("view").onclick = () => api.resetView();
    document.getElementById("load").onclick = () => {
      if (api.loadText(source.value, "edited.json")) { showError(""); api.resetView(); }
      else showError(api.error());
    };
    list.onchange = () => open(list.value);
  }

  // ---- self-test (index.html?test=1&steps=N) ---------------------------------------
  // Every demo scene stepped N times: "HASH path hash" lines for the test to
  // compare with the native `carom run`; then a drag through synthesised
  // pointer events (the mouse's own handlers) must move the grabbed body;
  // then a broken scene text must be refused with its line and column.
  function selfTest() {
    const out = [];
    const steps = Number(params.get("steps") || 120);
    for (const path of api.list("/scenes").split("\n").filter((s) => s.length > 0)) {
      if (!api.open(path)) { out.push("LOADFAIL " + path + " " + api.error().split("\n")[0]); continue; }
      api.step(steps);
      out.push("HASH " + path + " " + api.hash());
    }
    // Drag: the pyramid's top box, 3 m to the right.
    open("/scenes/pyramid.json");
    api.resetView();
    draw();
    const scale = api.camera(3);
    const toScreen = (wx, wy) => [canvas.width / 2 + (wx - api.camera(0)) * scale, canvas.height / 2 - (wy - api.camera(1)) * scale];
    const grabAt = toScreen(api.lastDynamic(0), api.lastDynamic(1));
    const ev = (type, x, y) => {
      const r = canvas.getBoundingClientRect();
      canvas.dispatchEvent(new PointerEvent(type, { clientX: r.left + x, clientY: r.top + y, button: 0, bubbles: true }));
    };
    ev("pointerdown", grabAt[0], grabAt[1]);
    const grabbed = dragging;
    const x0 = api.grabbed(0), y0 = api.grabbed(1);
    ev("pointermove", grabAt[0] + 3 * scale, grabAt[1]);
    api.step(90);
    const x1 = api.grabbed(0), y1 = api.grabbed(1);
    ev("pointerup", grabAt[0] + 3 * scale, grabAt[1]);
    out.push("DRAG grabbed=" + grabbed + " from " + x0 + "," + y0 + " to " + x1 + "," + y1 +
             " moved=" + (grabbed && Number.isFinite(x1) && x1 - x0 > 1.0 ? 1 : 0));
    // A broken scene text: refused, with FILE:LINE:COL.
    const ok = api.loadText('{\n  "carom": 1,\n  "bodies": [ { "type": "dynamc" } ]\n}\n', "broken.json");
    out.push("ERROR loaded=" + ok + " " + api.error().split("\n")[0]);
    out.push("DONE");
    const result = document.getElementById("result");
    result.textContent = out.join("\n");
    console.log("CAROM-RESULT\n" + out.join("\n"));
  }

  function start() {
    bind();
    for (const path of scenes()) {
      const o = document.createElement("option");
      o.value = o.textContent = path;
      list.appendChild(o);
    }
    wire();
    resize();
    if (params.get("test")) { selfTest(); return; }
    const first = params.get("scene") || "/scenes/pyramid.json";
    list.value = first;
    open(first);
    requestAnimationFrame(frame);
  }

  return { start };
})();
