// The games API (/api/v1) as the page uses it. Every call says what went wrong in words
// a player can act on; a lost connection is status 0.

const BASE = "/api/v1";

export class ApiError extends Error {
  constructor(status, message, body = null) {
    super(message);
    this.status = status;
    this.body = body;
  }
  get offline() {
    return this.status === 0;
  }
  get stale() {
    return this.status === 409 && this.body?.current_version !== undefined;
  }
}

export function errorMessage(status, body) {
  const detail = body?.detail;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail) && detail.length) {
    return detail
      .map((item) => {
        const where = (item.loc || []).filter((part) => part !== "body").join(" ");
        return where ? `${where}: ${item.msg}` : item.msg;
      })
      .join("; ");
  }
  if (status === 0) return "No connection to the server.";
  return `The server answered ${status}.`;
}

// What was sent did not arrive: said so (it had said "Nothing is lost" of a tap it lost).
const OFFLINE = "No connection: not saved. Try again once back online.";

export class Api {
  constructor(gameId, token) {
    this.gameId = gameId;
    this.token = token || null;
    this.gameTag = null; // the ETag of the game as last read: a poll sends it back
  }

  get game() {
    return `${BASE}/games/${encodeURIComponent(this.gameId)}`;
  }

  collection(round, seat) {
    return `${this.game}/rounds/${round}/players/${seat}`;
  }

  headers(json) {
    const headers = {};
    if (json) headers["Content-Type"] = "application/json";
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    return headers;
  }

  async request(method, path, body, { headers = {}, onResponse = null } = {}) {
    let response;
    try {
      response = await fetch(path, {
        method,
        headers: { ...this.headers(body !== undefined), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: "no-store",
      });
    } catch {
      throw new ApiError(0, OFFLINE);
    }
    if (onResponse) onResponse(response);
    if (response.status === 304) return null;
    let data = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    if (!response.ok) {
      throw new ApiError(response.status, errorMessage(response.status, data), data);
    }
    return data;
  }

  static createGame(body) {
    return new Api(null).request("POST", `${BASE}/games`, body);
  }

  readGame() {
    return this.request("GET", this.game, undefined, { onResponse: (r) => this.keepTag(r) });
  }
  // For a poll: true while nothing in the game moved since it was last read (the server
  // answers an empty 304), so that the rest need not be asked for.
  async gameUnchanged() {
    if (!this.gameTag) return false;
    const headers = { "If-None-Match": this.gameTag };
    let unchanged = false;
    await this.request("GET", this.game, undefined, {
      headers,
      onResponse: (r) => {
        unchanged = r.status === 304;
        this.keepTag(r);
      },
    });
    return unchanged;
  }
  keepTag(response) {
    if (response.ok || response.status === 304) this.gameTag = response.headers.get("ETag");
  }
  readStandings() {
    return this.request("GET", `${this.game}/standings`);
  }
  readRound(round) {
    return this.request("GET", `${this.game}/rounds/${round}`);
  }
  readCollection(round, seat) {
    return this.request("GET", this.collection(round, seat));
  }
  correct(round, seat, correction) {
    return this.request("POST", `${this.collection(round, seat)}/corrections`, correction);
  }
  undo(round, seat, version) {
    return this.request("POST", `${this.collection(round, seat)}/undo`, { version });
  }
  confirm(round, seat, version) {
    return this.request("POST", `${this.collection(round, seat)}/confirm`, { version });
  }
  // Bring back a reading a later photo replaced (photo: its id; null for hand counts).
  restore(round, seat, photo, version) {
    return this.request("POST", `${this.collection(round, seat)}/restore`, { photo, version });
  }
  record(round, version, acceptProblems = false) {
    return this.request("POST", `${this.game}/rounds/${round}/record`, {
      version,
      accept_problems: acceptProblems,
    });
  }
  reopen(round, version) {
    return this.request("POST", `${this.game}/rounds/${round}/reopen`, { version });
  }

  // The photo goes up with XMLHttpRequest: fetch() cannot report upload progress.
  // onProgress(fraction) while sending; onProgress(null) once sent (detection runs).
  // replace: the player said yes to replacing cards they confirmed or corrected (the
  // server refuses that otherwise, with 409 and reason "would_replace").
  uploadPhoto(round, seat, file, version, onProgress, replace = false) {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open("POST", `${this.collection(round, seat)}/photos`);
      if (this.token) xhr.setRequestHeader("Authorization", `Bearer ${this.token}`);
      xhr.responseType = "json";
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress(event.loaded / event.total);
      };
      xhr.upload.onload = () => onProgress(null);
      xhr.onload = () => {
        const data = xhr.response;
        if (xhr.status >= 200 && xhr.status < 300) resolve(data);
        else reject(new ApiError(xhr.status, errorMessage(xhr.status, data), data));
      };
      xhr.onerror = () => reject(new ApiError(0, OFFLINE));
      xhr.ontimeout = () => reject(new ApiError(0, OFFLINE));
      const form = new FormData();
      form.append("image", file, file.name || "photo.jpg");
      form.append("version", String(version));
      if (replace) form.append("replace", "true");
      xhr.send(form);
    });
  }
}
