// The docs page's script (plain browser JavaScript, sent inline by src/openapi/page.ts): it fetches the OpenAPI
// document and draws it — the areas, each operation with its parameters, body, auth and responses — and filters
// by what is typed in the search box. Text from the document is only ever set as textContent.

export const PAGE_SCRIPT = String.raw`
'use strict';
var doc;
var AUTH = { none: 'no auth', user: 'signed in', admin: 'admin only', route: 'checked by the route' };

function el(tag, className, text) {
  var node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function resolve(schema) {
  if (schema && schema.$ref) return doc.components.schemas[schema.$ref.split('/').pop()] || {};
  return schema || {};
}

/** A one-line reading of a schema: integer 1…2147483647, "a" | "b", array of string, nullable … */
function typeText(schema) {
  schema = resolve(schema);
  if (schema.anyOf) return schema.anyOf.map(typeText).join(' | ');
  if (schema.enum) return schema.enum.map(function (v) { return JSON.stringify(v); }).join(' | ');
  var type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type || 'any';
  if (type === 'array') return 'array of ' + typeText(schema.items);
  var notes = [];
  if (schema.minimum !== undefined) notes.push('≥ ' + schema.minimum);
  if (schema.maximum !== undefined) notes.push('≤ ' + schema.maximum);
  if (schema.minLength) notes.push('non-blank');
  if (schema.maxLength !== undefined) notes.push('max ' + schema.maxLength + ' chars');
  if (schema.format) notes.push(schema.format);
  if (schema.contentMediaType) notes.push(schema.contentMediaType);
  if (schema.default !== undefined) notes.push('default ' + JSON.stringify(schema.default));
  return type + (notes.length ? ' (' + notes.join(', ') + ')' : '');
}

/** The object's keys as table rows, nested objects (also inside lists and nullables) indented under their key. */
function propertyRows(table, schema, prefix, depth) {
  schema = resolve(schema);
  var required = schema.required || [];
  Object.keys(schema.properties || {}).forEach(function (key) {
    var prop = resolve(schema.properties[key]);
    addRow(table, [prefix + key, typeText(prop), required.indexOf(key) >= 0 ? 'required' : '', prop.description]);
    var inner = objectInside(prop);
    if (inner && depth < 4) propertyRows(table, inner, prefix + key + (inner === prop ? '.' : '[].'), depth + 1);
  });
}

function objectInside(schema) {
  schema = resolve(schema);
  if (schema.properties) return schema;
  if (schema.items) return objectInside(schema.items);
  if (schema.anyOf) for (var i = 0; i < schema.anyOf.length; i++) { var found = objectInside(schema.anyOf[i]); if (found) return found; }
  return null;
}

function addRow(table, cells) {
  var row = table.insertRow();
  cells.forEach(function (cell) { row.insertCell().textContent = cell || ''; });
}

function schemaBlock(schema) {
  var box = el('div');
  var object = objectInside(schema);
  if (!object) { box.appendChild(el('code', null, typeText(schema))); return box; }
  if (object !== resolve(schema)) box.appendChild(el('code', null, typeText(schema)));
  var table = el('table');
  propertyRows(table, object, '', 0);
  box.appendChild(table);
  return box;
}

function operationView(path, method, op) {
  var item = el('details', 'op');
  var summary = el('summary');
  summary.appendChild(el('span', 'method ' + method, method.toUpperCase()));
  summary.appendChild(el('code', 'path', path));
  if (op.summary) summary.appendChild(el('span', 'summary', op.summary));
  summary.appendChild(el('span', 'auth ' + op['x-auth'], AUTH[op['x-auth']] || op['x-auth']));
  item.appendChild(summary);
  item.addEventListener('toggle', function () { if (item.open && item.children.length === 1) fillOperation(item, op); });
  item.dataset.search = (method + ' ' + path + ' ' + (op.summary || '') + ' ' +
    (op.parameters || []).map(function (p) { return p.name; }).join(' ')).toLowerCase();
  return item;
}

function fillOperation(item, op) {
  if (op.parameters) {
    item.appendChild(el('h4', null, 'Parameters'));
    var table = el('table');
    addRow(table, ['name', 'in', 'type', '', 'description']);
    table.rows[0].className = 'head';
    op.parameters.forEach(function (p) {
      addRow(table, [p.name, p.in, typeText(p.schema), p.required ? 'required' : '', p.description]);
    });
    item.appendChild(table);
  }
  if (op.requestBody) {
    item.appendChild(el('h4', null, 'Body' + (op.requestBody.required ? '' : ' (optional)')));
    Object.keys(op.requestBody.content).forEach(function (type) {
      item.appendChild(el('div', 'content-type', type));
      item.appendChild(schemaBlock(op.requestBody.content[type].schema));
    });
  }
  item.appendChild(el('h4', null, 'Responses'));
  // 200, 2XX, 400 … default: object keys would put numbers before 2XX.
  Object.keys(op.responses).sort().forEach(function (status) {
    var response = op.responses[status];
    var line = el('div', 'response');
    line.appendChild(el('span', 'status', status));
    line.appendChild(el('span', null, response.description));
    item.appendChild(line);
    Object.keys(response.content || {}).forEach(function (type) {
      var schema = response.content[type].schema;
      if (schema && Object.keys(schema).length && type === 'application/json') item.appendChild(schemaBlock(schema));
    });
  });
}

function render() {
  document.getElementById('title').textContent = doc.info.title + ' ' + doc.info.version;
  document.getElementById('intro').textContent = doc.info.description;
  var byTag = {};
  Object.keys(doc.paths).forEach(function (path) {
    Object.keys(doc.paths[path]).forEach(function (method) {
      var op = doc.paths[path][method];
      (byTag[op.tags[0]] = byTag[op.tags[0]] || []).push(operationView(path, method, op));
    });
  });
  var nav = document.getElementById('tags');
  var main = document.getElementById('operations');
  Object.keys(byTag).sort().forEach(function (tag, i) {
    var section = el('section');
    section.id = 'tag-' + i;
    section.appendChild(el('h2', null, tag));
    byTag[tag].forEach(function (op) { section.appendChild(op); });
    main.appendChild(section);
    var link = el('a', null, tag + ' (' + byTag[tag].length + ')');
    link.href = '#tag-' + i;
    nav.appendChild(link);
  });
}

function filter(text) {
  var words = text.toLowerCase().split(/\s+/).filter(Boolean);
  document.querySelectorAll('section').forEach(function (section) {
    var tag = section.firstChild.textContent.toLowerCase();
    var shown = 0;
    section.querySelectorAll('details.op').forEach(function (op) {
      var match = words.every(function (w) { return op.dataset.search.indexOf(w) >= 0 || tag.indexOf(w) >= 0; });
      op.hidden = !match;
      if (match) shown++;
    });
    section.hidden = shown === 0;
  });
}

// Beside this page whether it was opened as /api/docs or /api/docs/.
var DOC_URL = location.pathname.replace(/\/?$/, '/') + 'openapi.json';
document.getElementById('raw').href = DOC_URL;
fetch(DOC_URL, { credentials: 'same-origin' })
  .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); })
  .then(function (json) {
    doc = json;
    render();
    var search = document.getElementById('search');
    search.addEventListener('input', function () { filter(search.value); });
  })
  .catch(function (e) { document.getElementById('intro').textContent = 'Could not load openapi.json: ' + e.message; });
`;
