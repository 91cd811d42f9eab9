// The web UI of Kubeflow Trainer: TrainJobs, their metric curves and OptimizationJobs. Every read goes through the
// UI server as the signed-in user (/k8s/... is the Kubernetes API, /history/... the metric history); lists stay
// current through watches. No framework; charts by uPlot (vendor/uplot).
(function () {
  'use strict';

  const TRAINER = '/k8s/apis/trainer.kubeflow.org/v1alpha1';
  const app = document.getElementById('app');
  let page = null; // what the current page opened (watches, log streams), closed when leaving it

  // ---- small helpers ------------------------------------------------------------------------------------------

  function esc(value) {
    return String(value == null ? '' : value).replace(/[&<>"']/g, c => ({
      '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'
    })[c]);
  }

  function el(html) {
    const template = document.createElement('template');
    template.innerHTML = html.trim();
    return template.content.firstChild;
  }

  class Refused extends Error {
    constructor(code, message) {
      super(message);
      this.code = code;
    }
  }

  async function getJson(path, signal) {
    const response = await fetch(path, {credentials: 'same-origin', signal: signal});
    const text = await response.text();
    let body = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch (e) {
      body = null;
    }
    if (!response.ok) {
      if (response.status === 401) {
        location.hash = '#/login?signin';
      }
      throw new Refused(response.status, (body && body.message) || response.statusText || String(response.status));
    }
    return body;
  }

  function age(timestamp) {
    if (!timestamp) {
      return '';
    }
    return duration((Date.now() - Date.parse(timestamp)) / 1000);
  }

  function duration(seconds) {
    seconds = Math.max(0, Math.round(seconds));
    if (seconds < 120) {
      return seconds + 's';
    }
    if (seconds < 7200) {
      return Math.round(seconds / 60) + 'm';
    }
    if (seconds < 172800) {
      return Math.round(seconds / 3600) + 'h';
    }
    return Math.round(seconds / 86400) + 'd';
  }

  function condition(object, type) {
    return ((object.status && object.status.conditions) || []).find(c => c.type === type && c.status === 'True');
  }

  /** A TrainJob's state, as a user says it: Complete, Failed, Suspended, Running or Pending. */
  function trainJobState(trainJob) {
    if (condition(trainJob, 'Complete')) {
      return 'Complete';
    }
    if (condition(trainJob, 'Failed')) {
      return 'Failed';
    }
    if (condition(trainJob, 'Suspended')) {
      return 'Suspended';
    }
    const status = trainJob.status || {};
    const active = (status.jobsStatus || []).some(job => (job.active || 0) > 0 || (job.ready || 0) > 0);
    return active || status.trainerStatus ? 'Running' : 'Pending';
  }

  function progressOf(trainJob) {
    const status = (trainJob.status && trainJob.status.trainerStatus) || {};
    if (status.progressPercentage != null) {
      return status.progressPercentage;
    }
    return trainJobState(trainJob) === 'Complete' ? 100 : null;
  }

  function progressBar(percent) {
    if (percent == null) {
      return '<span class="muted">–</span>';
    }
    return '<span class="bar" role="progressbar" aria-valuenow="' + percent + '" aria-valuemin="0" '
        + 'aria-valuemax="100"><span style="width:' + percent + '%"></span></span> <span class="pct">'
        + percent + '%</span>';
  }

  function eta(trainJob) {
    const status = (trainJob.status && trainJob.status.trainerStatus) || {};
    return status.estimatedRemainingSeconds != null && trainJobState(trainJob) === 'Running'
        ? 'about ' + duration(status.estimatedRemainingSeconds) : '';
  }

  function restarts(trainJob) {
    const annotations = trainJob.metadata.annotations || {};
    return annotations['kftrainer.io/restarts'] || '0';
  }

  function runtimeOf(trainJob) {
    const ref = (trainJob.spec && trainJob.spec.runtimeRef) || {};
    return ref.name || '';
  }

  function refusal(error, what) {
    if (error instanceof Refused && error.code === 403) {
      return '<div class="refusal" id="refusal"><strong>Not allowed.</strong> You may not ' + esc(what)
          + '. The API server said: <q>' + esc(error.message) + '</q></div>';
    }
    if (error instanceof Refused && error.code === 404) {
      return '<div class="refusal" id="refusal"><strong>Not found.</strong> ' + esc(error.message) + '</div>';
    }
    return '<div class="refusal" id="refusal">' + esc(error.message) + '</div>';
  }

  // ---- watches ----------------------------------------------------------------------------------------------------

  /**
   * Lists path, then keeps the objects current with a watch from the list's resourceVersion (again after the server
   * ends it; a fresh list after 410 Gone). onList(items) then onEvent(type, object); onError(error) when the list
   * is refused. Returns what stops it.
   */
  function listAndWatch(path, onList, onEvent, onError) {
    const control = new AbortController();
    let stopped = false;
    const separator = path.includes('?') ? '&' : '?';

    async function run() {
      let version = null;
      while (!stopped) {
        try {
          if (version === null) {
            const list = await getJson(path, control.signal);
            version = list.metadata.resourceVersion;
            onList(list.items || []);
          }
          version = await watch(path + separator + 'watch=true&allowWatchBookmarks=true&resourceVersion='
              + encodeURIComponent(version), control.signal, onEvent, version);
        } catch (error) {
          if (stopped) {
            return;
          }
          if (error instanceof Refused) {
            onError(error);
            return;
          }
          await new Promise(resolve => setTimeout(resolve, 2000));
        }
      }
    }

    run();
    return () => {
      stopped = true;
      control.abort();
    };
  }

  /** Reads a watch stream; returns the resourceVersion to watch from next, null when a fresh list is needed. */
  async function watch(path, signal, onEvent, version) {
    const response = await fetch(path, {credentials: 'same-origin', signal: signal});
    if (!response.ok) {
      throw new Refused(response.status, response.statusText);
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) {
        return version;
      }
      buffered += decoder.decode(chunk.value, {stream: true});
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        if (!line) {
          continue;
        }
        const event = JSON.parse(line);
        if (event.type === 'ERROR') {
          return event.object && event.object.code === 410 ? null : version;
        }
        version = event.object.metadata.resourceVersion;
        if (event.type !== 'BOOKMARK') {
          onEvent(event.type, event.object);
        }
      }
    }
  }

  /** Keeps map (keyOf(object) to object) current by listAndWatch of path, calling render() after each change. */
  function watchInto(path, map, keyOf, render, onError) {
    return listAndWatch(path, items => {
      map.clear();
      items.forEach(item => map.set(keyOf(item), item));
      render();
    }, (type, item) => {
      if (type === 'DELETED') {
        map.delete(keyOf(item));
      } else {
        map.set(keyOf(item), item);
      }
      render();
    }, onError);
  }

  // ---- charts -----------------------------------------------------------------------------------------------------

  function lineChart(target, title, xs, ys, options) {
    options = options || {};
    const container = target.parentElement || target;
    const width = Math.max(320, Math.min(580, container.clientWidth || 580));
    const series = [{}, {label: title, stroke: '#2563eb', width: 2, points: {show: xs.length < 60}}];
    const data = [xs, ys];
    (options.extra || []).forEach(extra => {
      series.push(extra.series);
      data.push(extra.values);
    });
    return new uPlot({
      title: title,
      width: width,
      height: 240,
      scales: {x: {time: options.time !== false}},
      axes: [{label: options.xLabel || ''}, {label: options.yLabel || ''}],
      series: series
    }, data, target);
  }

  // ---- pages ------------------------------------------------------------------------------------------------------

  const pages = {
    login: loginPage,
    trainjobs: trainJobsPage,
    trainjob: trainJobPage,
    optimizationjobs: optimizationJobsPage,
    optimizationjob: optimizationJobPage
  };

  function route() {
    if (page) {
      page.forEach(stop => stop());
    }
    page = [];
    const hash = location.hash || '#/trainjobs';
    const [pathPart, queryPart] = hash.slice(1).split('?');
    const parts = pathPart.split('/').filter(Boolean).map(decodeURIComponent);
    const query = new URLSearchParams(queryPart || '');
    document.querySelectorAll('nav a').forEach(a => a.classList.toggle('active',
        (parts[0] || 'trainjobs') === a.dataset.section));
    if (parts[0] === 'login') {
      pages.login(query);
    } else if (parts[0] === 'trainjobs' && parts.length === 3) {
      pages.trainjob(parts[1], parts[2]);
    } else if (parts[0] === 'optimizationjobs' && parts.length === 3) {
      pages.optimizationjob(parts[1], parts[2]);
    } else if (parts[0] === 'optimizationjobs') {
      pages.optimizationjobs(query);
    } else {
      pages.trainjobs(query);
    }
  }

  function loginPage(query) {
    const why = query.has('expired') ? 'That login link was used already, or is too old: paste a token instead.'
        : query.has('failed') ? 'That token was refused by the API server.'
        : 'Sign in to see what your credentials allow.';
    app.innerHTML = '<section class="login"><h1>Sign in</h1><p id="login-reason">' + esc(why) + '</p>'
        + '<p>With <code>local</code>, open the link it printed in its banner. Else paste a bearer token, e.g. from '
        + '<code>kubectl create token &lt;serviceaccount&gt;</code>: it stays on the UI server, never in this '
        + 'page.</p><form method="post" action="/login"><label>Token <input type="password" name="token" '
        + 'id="token" autocomplete="off" required></label> <button type="submit">Sign in</button></form></section>';
  }

  function namespaceFilter(query, base) {
    const namespace = query.get('namespace') || '';
    const state = query.get('state') || '';
    const states = ['', 'Running', 'Pending', 'Suspended', 'Complete', 'Failed'];
    return '<form class="filters" id="filters"><label>Namespace <input name="namespace" id="namespace" '
        + 'list="namespaces" placeholder="all namespaces" value="' + esc(namespace) + '"></label>'
        + '<datalist id="namespaces"></datalist>'
        + (base === 'trainjobs' ? ' <label>State <select name="state" id="state">' + states.map(s =>
            '<option value="' + s + '"' + (s === state ? ' selected' : '') + '>' + (s || 'any') + '</option>')
            .join('') + '</select></label>' : '')
        + ' <button type="submit">Show</button></form>';
  }

  function wireFilters(base) {
    const form = document.getElementById('filters');
    form.addEventListener('submit', event => {
      event.preventDefault();
      const params = new URLSearchParams();
      const namespace = form.namespace.value.trim();
      if (namespace) {
        params.set('namespace', namespace);
      }
      if (form.state && form.state.value) {
        params.set('state', form.state.value);
      }
      location.hash = '#/' + base + (params.toString() ? '?' + params : '');
    });
    if (form.state) {
      form.state.addEventListener('change', () => form.requestSubmit());
    }
    // the namespaces the user may list, as suggestions; a user of one namespace types it
    getJson('/k8s/api/v1/namespaces').then(list => {
      document.getElementById('namespaces').innerHTML = (list.items || [])
          .map(ns => '<option value="' + esc(ns.metadata.name) + '">').join('');
    }).catch(() => {});
  }

  function trainJobsPage(query) {
    const namespace = query.get('namespace') || '';
    const stateFilter = query.get('state') || '';
    app.innerHTML = '<h1>TrainJobs</h1>' + namespaceFilter(query, 'trainjobs')
        + '<div id="list-status" class="muted">Loading…</div>'
        + '<table class="list" id="trainjobs"><thead><tr><th>Name</th><th>Namespace</th><th>Runtime</th>'
        + '<th>State</th><th>Progress</th><th>ETA</th><th>Restarts</th><th>Age</th></tr></thead>'
        + '<tbody></tbody></table>';
    wireFilters('trainjobs');
    const body = app.querySelector('#trainjobs tbody');
    const status = document.getElementById('list-status');
    const rows = new Map();

    function html(trainJob) {
      const ns = trainJob.metadata.namespace;
      const name = trainJob.metadata.name;
      const state = trainJobState(trainJob);
      return '<td><a href="#/trainjobs/' + encodeURIComponent(ns) + '/' + encodeURIComponent(name) + '">'
          + esc(name) + '</a></td><td>' + esc(ns) + '</td><td>' + esc(runtimeOf(trainJob)) + '</td>'
          + '<td><span class="state ' + state.toLowerCase() + '">' + state + '</span></td>'
          + '<td class="progress">' + progressBar(progressOf(trainJob)) + '</td><td>' + esc(eta(trainJob))
          + '</td><td>' + esc(restarts(trainJob)) + '</td><td class="age" data-created="'
          + esc(trainJob.metadata.creationTimestamp) + '">' + age(trainJob.metadata.creationTimestamp) + '</td>';
    }

    function shown(trainJob) {
      return !stateFilter || trainJobState(trainJob) === stateFilter;
    }

    function count() {
      status.textContent = rows.size + ' TrainJob' + (rows.size === 1 ? '' : 's')
          + (namespace ? ' in ' + namespace : '') + (stateFilter ? ', ' + stateFilter : '') + ' · live';
    }

    function put(trainJob) {
      const key = trainJob.metadata.namespace + '/' + trainJob.metadata.name;
      let row = rows.get(key);
      if (!shown(trainJob)) {
        if (row) {
          row.remove();
          rows.delete(key);
        }
        return;
      }
      if (!row) {
        row = document.createElement('tr');
        row.dataset.key = key;
        rows.set(key, row);
        body.prepend(row);
      }
      row.innerHTML = html(trainJob);
    }

    const path = TRAINER + (namespace ? '/namespaces/' + encodeURIComponent(namespace) : '') + '/trainjobs';
    page.push(listAndWatch(path, items => {
      rows.clear();
      const visible = items.filter(shown).sort((a, b) =>
          (b.metadata.creationTimestamp || '').localeCompare(a.metadata.creationTimestamp || ''));
      body.innerHTML = visible.map(t => '<tr data-key="' + esc(t.metadata.namespace + '/' + t.metadata.name)
          + '">' + html(t) + '</tr>').join('');
      body.querySelectorAll('tr').forEach(row => rows.set(row.dataset.key, row));
      count();
      if (!performance.getEntriesByName('trainjobs-listed').length) {
        performance.mark('trainjobs-listed'); // what the first-page harness measures
      }
    }, (type, trainJob) => {
      if (type === 'DELETED') {
        const key = trainJob.metadata.namespace + '/' + trainJob.metadata.name;
        const row = rows.get(key);
        if (row) {
          row.remove();
          rows.delete(key);
        }
      } else {
        put(trainJob);
      }
      count();
    }, error => {
      status.outerHTML = refusal(error, 'list TrainJobs ' + (namespace ? 'in namespace ' + namespace
          : 'in all namespaces; choose a namespace of yours'));
    }));
    const ticker = setInterval(() => body.querySelectorAll('td.age').forEach(cell => {
      cell.textContent = age(cell.dataset.created);
    }), 10000);
    page.push(() => clearInterval(ticker));
  }

  function trainJobPage(namespace, name) {
    const base = '/namespaces/' + encodeURIComponent(namespace);
    app.innerHTML = '<p class="crumbs"><a href="#/trainjobs">TrainJobs</a> / ' + esc(namespace) + '</p>'
        + '<h1>' + esc(name) + '</h1><div id="summary" class="muted">Loading…</div>'
        + '<h2>Metrics</h2><div id="charts" class="charts"><p class="muted">No metric reported yet.</p></div>'
        + '<h2>Conditions</h2><div id="conditions"></div>'
        + '<h2>Children</h2><div id="children"></div>'
        + '<h2>Events</h2><div id="events"></div>'
        + '<h2>Logs</h2><div id="logs"></div>'
        + '<h2>Runtime</h2><div id="runtime"></div>';
    let runtimeShown = false;
    let historyTimer = null;
    let historyVersion = null;
    const charts = new Map();

    function summary(trainJob) {
      const state = trainJobState(trainJob);
      const metrics = ((trainJob.status && trainJob.status.trainerStatus && trainJob.status.trainerStatus.metrics)
          || []).map(m => esc(m.name) + '=' + esc(m.value)).join(', ');
      document.getElementById('summary').innerHTML = '<dl class="facts">'
          + '<dt>State</dt><dd><span class="state ' + state.toLowerCase() + '" id="state">' + state + '</span></dd>'
          + '<dt>Progress</dt><dd class="progress" id="progress">' + progressBar(progressOf(trainJob)) + '</dd>'
          + '<dt>ETA</dt><dd>' + esc(eta(trainJob) || '–') + '</dd>'
          + '<dt>Latest metrics</dt><dd>' + (metrics || '–') + '</dd>'
          + '<dt>Restarts</dt><dd>' + esc(restarts(trainJob)) + '</dd>'
          + '<dt>Runtime</dt><dd>' + esc(((trainJob.spec.runtimeRef || {}).kind || 'ClusterTrainingRuntime')
              + ' ' + runtimeOf(trainJob)) + '</dd>'
          + '<dt>Created</dt><dd>' + esc(trainJob.metadata.creationTimestamp) + ' (' + age(
              trainJob.metadata.creationTimestamp) + ' ago)</dd></dl>';
      document.getElementById('conditions').innerHTML = table(['Type', 'Status', 'Reason', 'Message', 'Since'],
          ((trainJob.status && trainJob.status.conditions) || []).map(c => [c.type, c.status, c.reason || '',
            c.message || '', c.lastTransitionTime || '']));
      if (!runtimeShown) {
        runtimeShown = true;
        showRuntime(trainJob);
      }
    }

    function showRuntime(trainJob) {
      const ref = trainJob.spec.runtimeRef || {};
      const path = ref.kind === 'TrainingRuntime' ? TRAINER + base + '/trainingruntimes/' + ref.name
          : TRAINER + '/clustertrainingruntimes/' + ref.name;
      getJson(path).then(runtime => {
        delete runtime.metadata.managedFields;
        document.getElementById('runtime').innerHTML = '<pre class="yaml">' + esc(JSON.stringify(runtime, null, 2))
            + '</pre>';
      }).catch(error => {
        document.getElementById('runtime').innerHTML = refusal(error, 'read the runtime ' + ref.name);
      });
    }

    let reportedMetrics = [];

    /**
     * The history again once the TrainJob's reported status changed (event-driven, no polling): at most one fetch
     * at a time, 300 ms after the change, reading whatever was reported meanwhile.
     */
    function refreshHistory(trainJob) {
      const status = trainJob.status && trainJob.status.trainerStatus;
      reportedMetrics = (status && status.metrics) || [];
      const reported = status ? status.lastUpdatedTime + JSON.stringify(status.metrics) : null;
      if (reported === historyVersion) {
        return;
      }
      historyVersion = reported;
      if (!historyTimer) {
        historyTimer = setTimeout(() => {
          historyTimer = null;
          drawHistory(0);
        }, charts.size ? 300 : 0);
      }
    }

    /**
     * Whether the history lags the TrainJob's latest reported values: the status server keeps a report just after
     * writing the TrainJob's status (on a cluster another replica may hold it until its next batch).
     */
    function behind(history) {
      return reportedMetrics.some(metric => {
        const value = Number(metric.value);
        const series = history.metrics.find(s => s.name === metric.name);
        return Number.isFinite(value) && (!series || !series.points.length
            || series.points[series.points.length - 1][2] !== value);
      });
    }

    function drawHistory(attempt) {
      getJson('/history' + base + '/trainjobs/' + encodeURIComponent(name)).then(history => {
        const target = document.getElementById('charts');
        if (history.metrics.length && charts.size === 0) {
          target.innerHTML = '';
        }
        history.metrics.forEach(metric => {
          const xs = metric.points.map(p => p[1] / 1000);
          const ys = metric.points.map(p => p[2]);
          let chart = charts.get(metric.name);
          if (chart) {
            chart.setData([xs, ys]);
          } else {
            const holder = el('<div class="chart" data-metric="' + esc(metric.name) + '" data-points="'
                + metric.points.length + '"></div>');
            target.appendChild(holder);
            chart = lineChart(holder, metric.name, xs, ys, {yLabel: metric.name});
            charts.set(metric.name, chart);
          }
          chart.root.parentElement.dataset.points = metric.points.length;
        });
        if (!historyTimer && attempt < 5 && behind(history)) {
          historyTimer = setTimeout(() => {
            historyTimer = null;
            drawHistory(attempt + 1);
          }, 500);
        }
      }).catch(error => {
        document.getElementById('charts').innerHTML = refusal(error, 'read the metrics of ' + name);
      });
    }

    page.push(listAndWatch(TRAINER + base + '/trainjobs?fieldSelector=' + encodeURIComponent('metadata.name=' + name),
        items => {
          if (!items.length) {
            document.getElementById('summary').outerHTML = refusal(new Refused(404, 'TrainJob ' + namespace + '/'
                + name + ' does not exist.'), '');
            return;
          }
          summary(items[0]);
          refreshHistory(items[0]);
        }, (type, trainJob) => {
          if (type !== 'DELETED') {
            summary(trainJob);
            refreshHistory(trainJob);
          }
        }, error => refuseWholePage(error, 'read TrainJob ' + namespace + '/' + name)));
    page.push(() => clearTimeout(historyTimer));
    children(namespace, name);
    events(namespace, name);
  }

  /** An object the user may not read: its page is the refusal alone, and reads nothing more. */
  function refuseWholePage(error, what) {
    page.forEach(stop => stop());
    page = [];
    const crumbs = app.querySelector('.crumbs');
    const title = app.querySelector('h1');
    app.innerHTML = (crumbs ? crumbs.outerHTML : '') + (title ? title.outerHTML : '') + refusal(error, what);
  }

  function table(headings, rows) {
    if (!rows.length) {
      return '<p class="muted">None.</p>';
    }
    return '<table class="list"><thead><tr>' + headings.map(h => '<th>' + esc(h) + '</th>').join('')
        + '</tr></thead><tbody>' + rows.map(row => '<tr>' + row.map(cell => '<td>' + esc(cell) + '</td>').join('')
        + '</tr>').join('') + '</tbody></table>';
  }

  /** The JobSet, its Jobs and Pods, kept current by watches of the JobSet's label; the pods' logs. */
  function children(namespace, name) {
    const base = '/namespaces/' + encodeURIComponent(namespace);
    const selector = 'labelSelector=' + encodeURIComponent('jobset.sigs.k8s.io/jobset-name=' + name);
    const state = {jobsets: new Map(), jobs: new Map(), pods: new Map()};
    const target = document.getElementById('children');

    function render() {
      const rows = [];
      state.jobsets.forEach(jobset => rows.push(['JobSet', jobset.metadata.name,
        ((jobset.status && jobset.status.conditions) || []).filter(c => c.status === 'True').map(c => c.type)
            .join(', ') || 'Active', '']));
      state.jobs.forEach(job => {
        const status = job.status || {};
        rows.push(['Job', job.metadata.name, ((status.conditions || []).filter(c => c.status === 'True')
            .map(c => c.type).join(', ')) || ('active ' + (status.active || 0) + ', succeeded '
            + (status.succeeded || 0) + ', failed ' + (status.failed || 0)), '']);
      });
      state.pods.forEach(pod => rows.push(['Pod', pod.metadata.name, (pod.status && pod.status.phase) || '',
        (pod.spec && pod.spec.nodeName) || '']));
      target.innerHTML = table(['Kind', 'Name', 'Phase', 'Node'], rows);
      logPicker(namespace, [...state.pods.values()]);
    }

    const byName = item => item.metadata.name;
    const refused = error => {
      target.innerHTML = refusal(error, 'read the children of ' + name);
    };
    page.push(watchInto('/k8s/apis/jobset.x-k8s.io/v1alpha2' + base + '/jobsets?fieldSelector='
        + encodeURIComponent('metadata.name=' + name), state.jobsets, byName, render, refused));
    page.push(watchInto('/k8s/apis/batch/v1' + base + '/jobs?' + selector, state.jobs, byName, render, refused));
    page.push(watchInto('/k8s/api/v1' + base + '/pods?' + selector, state.pods, byName, render, refused));
  }

  function events(namespace, name) {
    const items = new Map();
    const target = document.getElementById('events');

    function related(event) {
      const object = event.involvedObject || {};
      return object.name === name || (object.name || '').startsWith(name + '-');
    }

    function render() {
      const rows = [...items.values()].filter(related)
          .sort((a, b) => (a.lastTimestamp || a.eventTime || '').localeCompare(b.lastTimestamp || b.eventTime || ''))
          .map(e => [e.type || '', e.reason || '', (e.involvedObject || {}).kind + ' ' + (e.involvedObject || {}).name,
            e.message || '', e.count || 1, age(e.lastTimestamp || e.eventTime)]);
      target.innerHTML = table(['Type', 'Reason', 'Object', 'Message', 'Count', 'Age'], rows);
    }

    page.push(watchInto('/k8s/api/v1/namespaces/' + encodeURIComponent(namespace) + '/events', items,
        event => event.metadata.name, render, error => {
          target.innerHTML = refusal(error, 'read the Events of namespace ' + namespace);
        }));
  }

  let logStream = null;

  function logPicker(namespace, pods) {
    const target = document.getElementById('logs');
    const names = pods.map(pod => pod.metadata.name).sort();
    const select = target.querySelector('select');
    if (select && [...select.options].map(o => o.value).join() === names.join()) {
      return;
    }
    const chosen = select ? select.value : names[0];
    if (!names.length) {
      target.innerHTML = '<p class="muted">No pod.</p>';
      return;
    }
    target.innerHTML = '<label>Pod <select id="log-pod">' + names.map(n => '<option' + (n === chosen ? ' selected' : '')
        + '>' + esc(n) + '</option>').join('') + '</select></label> <label><input type="checkbox" id="log-follow" '
        + 'checked> follow</label><pre class="log" id="log"></pre>';
    const start = () => followLog(namespace, target.querySelector('#log-pod').value,
        target.querySelector('#log-follow').checked);
    target.querySelector('#log-pod').addEventListener('change', start);
    target.querySelector('#log-follow').addEventListener('change', start);
    start();
  }

  async function followLog(namespace, pod, follow, attempt) {
    attempt = attempt || 0;
    if (logStream) {
      logStream.abort();
    }
    const control = new AbortController();
    logStream = control;
    page.push(() => control.abort());
    const out = document.getElementById('log');
    out.textContent = '';
    try {
      const response = await fetch('/k8s/api/v1/namespaces/' + encodeURIComponent(namespace) + '/pods/'
          + encodeURIComponent(pod) + '/log?tailLines=1000' + (follow ? '&follow=true' : ''),
          {credentials: 'same-origin', signal: control.signal});
      if (!response.ok) {
        const body = await response.json().catch(() => ({}));
        out.textContent = 'Logs not available: ' + (body.message || response.statusText);
        if (response.status === 400 && attempt < 60) {
          // the container has not started yet: try again while the page is open
          setTimeout(() => {
            if (logStream === control) {
              followLog(namespace, pod, follow, attempt + 1);
            }
          }, 2000);
        }
        return;
      }
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) {
          return;
        }
        const atBottom = out.scrollTop + out.clientHeight >= out.scrollHeight - 4;
        out.textContent += decoder.decode(chunk.value, {stream: true});
        if (out.textContent.length > 1000000) {
          out.textContent = out.textContent.slice(-500000);
        }
        if (atBottom) {
          out.scrollTop = out.scrollHeight;
        }
      }
    } catch (e) {
      // aborted: another pod, or another page
    }
  }

  function optimizationJobsPage(query) {
    const namespace = query.get('namespace') || '';
    app.innerHTML = '<h1>OptimizationJobs</h1>' + namespaceFilter(query, 'optimizationjobs')
        + '<div id="list-status" class="muted">Loading…</div><table class="list" id="optimizationjobs"><thead><tr>'
        + '<th>Name</th><th>Namespace</th><th>State</th><th>Trials</th><th>Best</th><th>Age</th></tr></thead>'
        + '<tbody></tbody></table>';
    wireFilters('optimizationjobs');
    const items = new Map();
    const body = app.querySelector('#optimizationjobs tbody');

    function render() {
      body.innerHTML = [...items.values()].sort((a, b) => (b.metadata.creationTimestamp || '')
          .localeCompare(a.metadata.creationTimestamp || '')).map(job => {
        const status = job.status || {};
        const best = status.result ? (status.result.metrics || []).map(m => m.name + '=' + m.value).join(', ') : '';
        return '<tr><td><a href="#/optimizationjobs/' + encodeURIComponent(job.metadata.namespace) + '/'
            + encodeURIComponent(job.metadata.name) + '">' + esc(job.metadata.name) + '</a></td><td>'
            + esc(job.metadata.namespace) + '</td><td>' + esc(optimizationState(job)) + '</td><td>'
            + esc(status.progress || '') + '</td><td>' + esc(best) + '</td><td>' + age(job.metadata.creationTimestamp)
            + '</td></tr>';
      }).join('');
      document.getElementById('list-status').textContent = items.size + ' OptimizationJob'
          + (items.size === 1 ? '' : 's') + ' · live';
    }

    page.push(watchInto(TRAINER + (namespace ? '/namespaces/' + encodeURIComponent(namespace) : '')
        + '/optimizationjobs', items, job => job.metadata.namespace + '/' + job.metadata.name, render, error => {
          document.getElementById('list-status').outerHTML = refusal(error, 'list OptimizationJobs '
              + (namespace ? 'in namespace ' + namespace : 'in all namespaces; choose a namespace of yours'));
        }));
  }

  function optimizationState(job) {
    return condition(job, 'Complete') ? 'Complete' : condition(job, 'Failed') ? 'Failed'
        : condition(job, 'Running') ? 'Running' : 'Pending';
  }

  function optimizationJobPage(namespace, name) {
    app.innerHTML = '<p class="crumbs"><a href="#/optimizationjobs">OptimizationJobs</a> / ' + esc(namespace)
        + '</p><h1>' + esc(name) + '</h1><div id="summary" class="muted">Loading…</div>'
        + '<h2>Objective per trial</h2><div id="objective-chart" class="charts"></div>'
        + '<h2>Trials</h2><div id="trials"></div>';
    let chart = null;

    function render(job) {
      const spec = job.spec || {};
      const status = job.status || {};
      const objective = (spec.objectives || [])[0] || {};
      const metric = objective.metric;
      const trials = status.trials || [];
      const best = status.result && status.result.trainJobName;
      document.getElementById('summary').innerHTML = '<dl class="facts"><dt>State</dt><dd id="state">'
          + esc(optimizationState(job)) + '</dd><dt>Objective</dt><dd>' + esc((objective.direction || '') + ' '
          + (metric || '')) + '</dd><dt>Trials</dt><dd>' + esc(status.progress || trials.length) + '</dd>'
          + '<dt>Best</dt><dd id="best">' + (best ? esc(best) + ' (' + esc((status.result.metrics || [])
              .map(m => m.name + '=' + m.value).join(', ')) + ')' : '–') + '</dd></dl>';
      const parameterNames = (spec.parameters || []).map(p => p.name);
      const valueOf = trial => {
        const found = (trial.metrics || []).find(m => m.name === metric)
            || ((trial.earlyStoppingObservation || {}).metrics || []).find(m => m.name === metric);
        return found ? Number(found.value) : null;
      };
      const rows = trials.map((trial, index) => {
        const parameters = Object.fromEntries((trial.parameters || []).map(p => [p.name, p.value]));
        const isBest = trial.trainJobName === best;
        const early = trial.state === 'EarlyStopped';
        const value = valueOf(trial);
        return '<tr class="trial' + (isBest ? ' best' : '') + (early ? ' early-stopped' : '') + '" data-trial="'
            + esc(trial.trainJobName) + '" data-state="' + esc(trial.state) + '"><td>' + index + '</td><td><a href="#/trainjobs/'
            + encodeURIComponent(namespace) + '/' + encodeURIComponent(trial.trainJobName) + '">'
            + esc(trial.trainJobName) + '</a>' + (isBest ? ' <span class="badge best-badge">best</span>' : '')
            + '</td>' + parameterNames.map(p => '<td>' + esc(parameters[p]) + '</td>').join('')
            + '<td><span class="state ' + esc((trial.state || '').toLowerCase()) + '">' + esc(trial.state)
            + '</span>' + (trial.reason ? ' <span class="muted">' + esc(trial.reason) + '</span>' : '') + '</td><td>'
            + (value == null ? '–' : esc(value) + (early ? ' <span class="muted">(when stopped)</span>' : ''))
            + '</td></tr>';
      });
      document.getElementById('trials').innerHTML = trials.length ? '<table class="list" id="trials-table">'
          + '<thead><tr><th>#</th><th>Trial</th>' + parameterNames.map(p => '<th>' + esc(p) + '</th>').join('')
          + '<th>State</th><th>' + esc(metric || 'objective') + '</th></tr></thead><tbody>' + rows.join('')
          + '</tbody></table>' : '<p class="muted">No trial yet.</p>';
      const xs = trials.map((t, i) => i);
      const plain = trials.map(t => t.state === 'EarlyStopped' || t.trainJobName === best ? null : valueOf(t));
      const stopped = trials.map(t => t.state === 'EarlyStopped' ? valueOf(t) : null);
      const bestValues = trials.map(t => t.trainJobName === best ? valueOf(t) : null);
      const target = document.getElementById('objective-chart');
      target.dataset.trials = String(trials.filter(t => valueOf(t) != null).length);
      const data = [xs, plain, stopped, bestValues];
      if (chart) {
        chart.setData(data);
        return;
      }
      if (!trials.length) {
        return;
      }
      chart = new uPlot({
        title: (metric || 'objective') + ' per trial',
        width: Math.max(320, Math.min(target.clientWidth || 640, 900)),
        height: 240,
        scales: {x: {time: false}},
        axes: [{label: 'trial', incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500]}, {label: metric || ''}],
        series: [{label: 'trial'},
          {label: 'trial', stroke: '#2563eb', paths: () => null, points: {show: true, size: 8, fill: '#2563eb'}},
          {label: 'early-stopped', stroke: '#9ca3af', paths: () => null,
            points: {show: true, size: 8, fill: '#fff', stroke: '#9ca3af'}},
          {label: 'best', stroke: '#16a34a', paths: () => null, points: {show: true, size: 12, fill: '#16a34a'}}]
      }, data, target);
    }

    page.push(listAndWatch(TRAINER + '/namespaces/' + encodeURIComponent(namespace) + '/optimizationjobs?fieldSelector='
        + encodeURIComponent('metadata.name=' + name), items => {
      if (items.length) {
        render(items[0]);
      } else {
        document.getElementById('summary').outerHTML = refusal(new Refused(404, 'OptimizationJob ' + namespace + '/'
            + name + ' does not exist.'), '');
      }
    }, (type, job) => {
      if (type !== 'DELETED') {
        render(job);
      }
    }, error => refuseWholePage(error, 'read OptimizationJob ' + namespace + '/' + name)));
  }

  // ---- start ------------------------------------------------------------------------------------------------------

  document.body.insertBefore(el('<header><a class="brand" href="#/trainjobs">Kubeflow Trainer</a><nav>'
      + '<a href="#/trainjobs" data-section="trainjobs">TrainJobs</a>'
      + '<a href="#/optimizationjobs" data-section="optimizationjobs">OptimizationJobs</a></nav>'
      + '<span id="user" class="muted"></span></header>'), app);
  getJson('/whoami').then(who => {
    document.getElementById('user').innerHTML = 'signed in as <strong id="username">' + esc(who.user)
        + '</strong> <form method="post" action="/logout" class="inline"><button type="submit">Sign out</button></form>';
  }).catch(() => {});
  window.addEventListener('hashchange', route);
  route();
}());
