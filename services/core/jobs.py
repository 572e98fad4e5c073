"""Bulk ingestion job state, kept in Redis so it survives API and worker restarts.

One job = a set of sources (files, directories, JSONL corpora) whose laws are ingested one
Celery task each. Redis keys (prefix `lexgraph:`):

- `job:<id>`        hash: state, timestamps, sources (JSON), laws/sections totals, cancel flag,
                    owner (the principal that submitted it; only it sees the job),
                    deleted (its owner deleted it: it reads as unknown through the API),
                    kind ("laws", or "document": one upload of a firm's document, whose
                    one unit is the document and whose sections are its passages) and,
                    for a document job, document (JSON: what storing it needs)
- `job:<id>:laws`   hash: law id -> JSON {status, source, sections, version, error}
- `jobs`            sorted set of job ids by creation time
- `deadletter`      hash: "<job id>|<law id>" -> JSON {job_id, law_id, source, error, at}

Every per-law transition goes through one Lua script, so a task that runs twice (a worker
killed after finishing but before acking, with `acks_late`) never counts a law twice, and
whichever task finishes the last law learns so and hands the job to its finishing step
(cross-law links, then the final state).
"""

from __future__ import annotations

import json
import time
import uuid
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal, cast

import redis

from services.core import telemetry
from services.core.errors import NotFound, StoreUnavailable

JobState = Literal["queued", "running", "succeeded", "failed", "cancelled"]
LawStatus = Literal["pending", "running", "succeeded", "unchanged", "failed", "cancelled"]

JOB_STATES: tuple[str, ...] = ("queued", "running", "succeeded", "failed", "cancelled")
FINAL_LAW_STATUSES = frozenset({"succeeded", "unchanged", "failed", "cancelled"})

_PREFIX = "lexgraph:"

# Lua, at the head of the two scripts below: stop with 0 when the law (ARGV[1]) already has
# a final status in the laws hash LAWS (a redelivered task). FINAL is the same set as
# FINAL_LAW_STATUSES.
_FINAL_LUA = "{" + ", ".join(f"{status} = true" for status in sorted(FINAL_LAW_STATUSES)) + "}"
_RETURN_IF_FINAL = """
local final = FINAL
local current = redis.call('HGET', LAWS, ARGV[1])
if current and final[cjson.decode(current)['status']] then
  return 0
end
""".replace("FINAL", _FINAL_LUA)

# KEYS: job hash, laws hash, dead-letter hash
# ARGV: law id, new status, entry JSON, sections, now, dead-letter field, dead-letter JSON
# Sets a final status once and counts its sections once. Returns 0 when the law was already
# final (a redelivered task), 1 when recorded, 2 when recorded and every law is now final
# (the caller then runs the job's finishing step, which sets the job's final state).
_FINISH_LAW = (
    _RETURN_IF_FINAL.replace("LAWS", "KEYS[2]")
    + """
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('HINCRBY', KEYS[1], 'sections_done', tonumber(ARGV[4]))
redis.call('HINCRBY', KEYS[1], 'laws_' .. ARGV[2], 1)
if ARGV[6] ~= '' then
  redis.call('HSET', KEYS[3], ARGV[6], ARGV[7])
end
local total = tonumber(redis.call('HGET', KEYS[1], 'laws_total') or '-1')
local settled = 0
for s, _ in pairs(final) do
  settled = settled + tonumber(redis.call('HGET', KEYS[1], 'laws_' .. s) or '0')
end
if redis.call('HGET', KEYS[1], 'fanned_out') == '1' and settled >= total then
  return 2
end
return 1
"""
)

# KEYS: laws hash, job hash; ARGV: law id, entry JSON, now. Running only if not final.
_START_LAW = (
    _RETURN_IF_FINAL.replace("LAWS", "KEYS[1]")
    + """
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if redis.call('HGET', KEYS[2], 'state') == 'queued' then
  redis.call('HSET', KEYS[2], 'state', 'running')
end
redis.call('HSETNX', KEYS[2], 'started_at', ARGV[3])
return 1
"""
)

# KEYS: laws hash, the law's lease; ARGV: law id. Running and unleased -> pending.
_REQUEUE_LAW = """
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current or redis.call('EXISTS', KEYS[2]) == 1 then
  return 0
end
local entry = cjson.decode(current)
if entry['status'] ~= 'running' then
  return 0
end
entry['status'] = 'pending'
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(entry))
return 1
"""

_RENEW_LEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
end
return 0
"""
_RELEASE_LEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


@dataclass(frozen=True)
class LawEntry:
    law_id: str
    status: str
    source: str
    sections: int = 0
    version: str | None = None
    error: str | None = None


@dataclass(frozen=True)
class Job:
    id: str
    state: str
    sources: tuple[str, ...]
    created_at: float
    started_at: float | None
    finished_at: float | None
    laws_total: int
    laws_done: int  # succeeded + unchanged
    laws_failed: int
    laws_cancelled: int
    laws_unchanged: int
    sections_total: int
    sections_done: int
    cancel_requested: bool
    retry_of: str | None
    error: str | None
    errors: dict[str, str] = field(default_factory=dict)  # law id (or source) -> reason
    owner: str = ""  # the principal (API key) that submitted it; "" for older jobs
    deleted: bool = False  # its owner deleted it; workers still finish what they run
    # links.check over the job's laws once they are final: cross-law citations in the
    # graph against a fresh resolution (None until the job's finishing step ran).
    check: dict[str, Any] | None = None
    # The day its texts apply from (ISO), kept beside the laws' earlier texts (publish.py)
    valid_from: str | None = None
    kind: str = "laws"  # or "document" (services/core/document_jobs.py)
    # A document job's upload: its id, file, metadata and uploader (never shown as such)
    document: dict[str, Any] | None = None

    @property
    def eta_s(self) -> float | None:
        """Seconds left at the rate so far; None before the first section or once final."""
        if self.state not in ("queued", "running") or not self.started_at:
            return None
        if self.sections_done <= 0 or self.sections_total <= 0:
            return None
        elapsed = max(time.time() - self.started_at, 1e-3)
        left = max(self.sections_total - self.sections_done, 0)
        return round(elapsed / self.sections_done * left, 1)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "state": self.state,
            "sources": list(self.sources),
            "created_at": self.created_at,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "laws": {
                "total": self.laws_total,
                "done": self.laws_done,
                "unchanged": self.laws_unchanged,
                "failed": self.laws_failed,
                "cancelled": self.laws_cancelled,
            },
            "sections": {"total": self.sections_total, "done": self.sections_done},
            "eta_s": self.eta_s,
            "cancel_requested": self.cancel_requested,
            "retry_of": self.retry_of,
            "error": self.error,
            "errors": dict(self.errors),
            "check": self.check,
            "valid_from": self.valid_from,
            "kind": self.kind,
            "document": {"id": self.document["key"]} if self.document else None,
        }


@dataclass(frozen=True)
class DeadLetter:
    job_id: str
    law_id: str
    source: str
    error: str
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "job_id": self.job_id,
            "law_id": self.law_id,
            "source": self.source,
            "error": self.error,
            "at": self.at,
        }


class RedisJobStore:
    """Job records in Redis. Every method is safe to call from many processes."""

    def __init__(self, client: redis.Redis) -> None:
        self._r = client
        self._finish = client.register_script(_FINISH_LAW)
        self._start = client.register_script(_START_LAW)

    @classmethod
    def from_url(cls, url: str) -> RedisJobStore:
        return cls(redis.Redis.from_url(url, decode_responses=True, socket_timeout=5.0))

    def close(self) -> None:
        self._r.close()

    def ping(self) -> None:
        try:
            self._r.ping()
        except redis.RedisError as e:
            raise StoreUnavailable(f"redis: {e}") from e

    # -- creating and reading jobs -----------------------------------------------------

    def create(
        self,
        sources: Sequence[str],
        *,
        owner: str = "",
        retry_of: str | None = None,
        valid_from: str | None = None,
        document: Mapping[str, Any] | None = None,
    ) -> Job:
        """A queued job over `sources`; with `document`, a document job (its one unit is
        planned at once, under the document's key)."""
        job_id = uuid.uuid4().hex
        now = time.time()
        record = {
            "id": job_id,
            "owner": owner,
            "state": "queued",
            "sources": json.dumps(list(sources), ensure_ascii=False),
            "created_at": repr(now),
            "laws_total": "0",
            "sections_total": "0",
            "sections_done": "0",
            "fanned_out": "0",
            "cancel_requested": "0",
        }
        if retry_of:
            record["retry_of"] = retry_of
        if valid_from:
            record["valid_from"] = valid_from
        if document is not None:
            record |= {
                "kind": "document",
                "document": json.dumps(dict(document), ensure_ascii=False),
                "laws_total": "1",
                "fanned_out": "1",
            }
        with self._guard():
            pipe = self._r.pipeline()
            pipe.hset(_job_key(job_id), mapping=cast(Any, record))
            if document is not None:
                unit = LawEntry(str(document["key"]), "pending", str(document["path"]))
                pipe.hset(_laws_key(job_id), unit.law_id, _entry_json(unit))
            pipe.zadd(_PREFIX + "jobs", {job_id: now})
            pipe.execute()
        return self.get(job_id)

    def get(self, job_id: str) -> Job:
        with self._guard():
            raw = cast(dict[str, str], self._r.hgetall(_job_key(job_id)))
            laws = cast(dict[str, str], self._r.hgetall(_laws_key(job_id))) if raw else {}
        if not raw:
            raise NotFound(f"job {job_id}")
        return _job_from(raw, laws)

    def list_jobs(
        self, *, state: str | None = None, owner: str | None = None, limit: int = 50
    ) -> list[Job]:
        """Newest first; only `owner`'s jobs when given."""
        with self._guard():
            ids = cast(list[str], self._r.zrevrange(_PREFIX + "jobs", 0, -1))
        jobs: list[Job] = []
        for job_id in ids:
            try:
                job = self.get(job_id)
            except NotFound:
                continue
            if (state is None or job.state == state) and (owner is None or job.owner == owner):
                jobs.append(job)
            if len(jobs) >= limit:
                break
        return jobs

    def laws(self, job_id: str) -> list[LawEntry]:
        with self._guard():
            raw = cast(dict[str, str], self._r.hgetall(_laws_key(job_id)))
        return [_entry_from(law_id, value) for law_id, value in sorted(raw.items())]

    def law(self, job_id: str, law_id: str) -> LawEntry | None:
        with self._guard():
            value = cast(str | None, self._r.hget(_laws_key(job_id), law_id))
        return _entry_from(law_id, value) if value else None

    # -- the life of a job -------------------------------------------------------------

    def plan(self, job_id: str, entries: Iterable[LawEntry], *, sections_total: int) -> None:
        """Record the laws a job will ingest (idempotent: a re-run keeps finished laws)."""
        entries = list(entries)
        with self._guard():
            pipe = self._r.pipeline()
            for entry in entries:
                pipe.hsetnx(_laws_key(job_id), entry.law_id, _entry_json(entry))
            pipe.hset(
                _job_key(job_id),
                mapping={"laws_total": str(len(entries)), "sections_total": str(sections_total)},
            )
            pipe.execute()

    def mark_fanned_out(self, job_id: str) -> bool:
        """All law tasks are enqueued; from now on the last law to finish reports so.
        True when every law is final already (nothing was left to run)."""
        with self._guard():
            self._r.hset(_job_key(job_id), "fanned_out", "1")
        return self.all_laws_final(job_id)

    def mark_running(self, job_id: str) -> None:
        with self._guard():
            pipe = self._r.pipeline()
            pipe.hsetnx(_job_key(job_id), "started_at", repr(time.time()))
            pipe.execute()
            # Only a queued job moves to running; a settled one keeps its state.
            self._r.eval(
                "if redis.call('HGET', KEYS[1], 'state') == 'queued' then "
                "redis.call('HSET', KEYS[1], 'state', 'running') end return 1",
                1,
                _job_key(job_id),
            )

    def start_law(self, job_id: str, law_id: str, source: str) -> bool:
        """Mark a law running; False when it is already final (a redelivered task)."""
        current = self.law(job_id, law_id)
        entry = LawEntry(
            law_id=law_id,
            status="running",
            source=source,
            sections=current.sections if current else 0,
        )
        with self._guard():
            started = self._start(
                keys=[_laws_key(job_id), _job_key(job_id)],
                args=[law_id, _entry_json(entry), repr(time.time())],
            )
        return bool(started)

    def finish_law(
        self,
        job_id: str,
        law_id: str,
        *,
        status: LawStatus,
        source: str,
        sections: int = 0,
        version: str | None = None,
        error: str | None = None,
        progress_reported: bool = False,
    ) -> int:
        """Record a law's final status once: 0 already final, 1 recorded, 2 recorded and
        every law of the job is final (time to `complete` it). With `progress_reported`,
        its sections were counted as they went (`report_progress`): not again here."""
        entry = LawEntry(law_id, status, source, sections, version, error)
        counted = sections if status in ("succeeded", "unchanged") else 0
        if progress_reported:
            counted = 0
        dead_field, dead_json = "", ""
        if status == "failed":
            dead_field = f"{job_id}|{law_id}"
            dead_json = json.dumps(
                DeadLetter(job_id, law_id, source, error or "", time.time()).to_dict(),
                ensure_ascii=False,
            )
        with self._guard():
            done = self._finish(
                keys=[_job_key(job_id), _laws_key(job_id), _PREFIX + "deadletter"],
                args=[
                    law_id,
                    status,
                    _entry_json(entry),
                    str(counted),
                    repr(time.time()),
                    dead_field,
                    dead_json,
                ],
            )
        if status in ("succeeded", "unchanged") and source:
            self._clear_dead_letters_for(law_id, source)
        if dead_field and done:
            telemetry.record_dead_letter("lexgraph.ingest_law")
        return int(done)

    def report_progress(self, job_id: str, done: int, total: int) -> None:
        """A document job's passages embedded so far, of `total` (a rerun starts again)."""
        with self._guard():
            self._r.hset(
                _job_key(job_id), mapping={"sections_total": str(total), "sections_done": str(done)}
            )

    def set_check(self, job_id: str, result: Mapping[str, Any]) -> None:
        """Keep the cross-law check of a job's laws (services/core/links.py) on the job."""
        with self._guard():
            self._r.hset(_job_key(job_id), "check", json.dumps(result, ensure_ascii=False))

    def fail_job(self, job_id: str, error: str) -> None:
        """A job that could not even be planned (no readable source at all)."""
        with self._guard():
            self._r.hset(
                _job_key(job_id),
                mapping={"state": "failed", "error": error, "finished_at": repr(time.time())},
            )

    def request_cancel(self, job_id: str) -> Job:
        """Cooperative cancel: laws not started are skipped; the one in progress finishes.
        The caller runs the finishing step when `all_laws_final` afterwards."""
        job = self.get(job_id)
        if job.state in ("succeeded", "failed", "cancelled"):
            return job
        with self._guard():
            self._r.hset(_job_key(job_id), "cancel_requested", "1")
        # Laws not started are settled now, so the job reads cancelled without waiting for
        # their queued tasks; those tasks find the law final and do nothing. A law already
        # running finishes and publishes whole (finish_law keeps the first final status).
        for entry in self.laws(job_id):
            if entry.status == "pending":
                self.finish_law(
                    job_id,
                    entry.law_id,
                    status="cancelled",
                    source=entry.source,
                    sections=entry.sections,
                )
        return self.get(job_id)

    def delete(self, job_id: str) -> None:
        """Take a job out of its owner's view (the caller cancels it first if it runs).
        The record stays for the workers, which may still be finishing its last law."""
        with self._guard():
            pipe = self._r.pipeline()
            pipe.hset(_job_key(job_id), "deleted", "1")
            pipe.zrem(_PREFIX + "jobs", job_id)
            pipe.execute()

    def cancel_requested(self, job_id: str) -> bool:
        with self._guard():
            return self._r.hget(_job_key(job_id), "cancel_requested") == "1"

    def settle_empty(self, job_id: str) -> None:
        """A cancelled job whose corpus task stopped before planning any law."""
        with self._guard():
            self._r.hset(
                _job_key(job_id),
                mapping={"state": "cancelled", "finished_at": repr(time.time())},
            )

    # -- leases: one runner per law at a time ----------------------------------------------

    def take_lease(self, job_id: str, law_id: str, owner: str, ttl_s: float) -> bool:
        """Claim a law for `owner` for `ttl_s` (renewed while it runs). A second delivery of
        the same law (kombu re-queues a message whose run outlasts the visibility timeout)
        finds the lease taken and waits instead of loading the law a second time."""
        with self._guard():
            taken = self._r.set(_lease_key(job_id, law_id), owner, nx=True, px=int(ttl_s * 1000))
            return bool(taken) or self._r.get(_lease_key(job_id, law_id)) == owner

    def renew_lease(self, job_id: str, law_id: str, owner: str, ttl_s: float) -> bool:
        with self._guard():
            return bool(
                self._r.eval(_RENEW_LEASE, 1, _lease_key(job_id, law_id), owner, int(ttl_s * 1000))
            )

    def release_lease(self, job_id: str, law_id: str, owner: str) -> None:
        with self._guard():
            self._r.eval(_RELEASE_LEASE, 1, _lease_key(job_id, law_id), owner)

    def unleased_running_laws(self) -> list[LawEntry]:
        """Laws marked running (of jobs not yet final) that nobody holds a lease on: their
        runner died, or is between `start_law` and `take_lease`. Entries carry the job id
        in `version` (job id, law id and source are what a re-queue needs)."""
        found: list[LawEntry] = []
        for job in self.list_jobs(state="running", limit=10_000):
            running = [e for e in self.laws(job.id) if e.status == "running"]
            if not running:
                continue
            with self._guard():
                pipe = self._r.pipeline()
                for entry in running:
                    pipe.exists(_lease_key(job.id, entry.law_id))
                leased = pipe.execute()
            found += [
                LawEntry(e.law_id, e.status, e.source, e.sections, job.id)
                for e, held in zip(running, leased, strict=True)
                if not held
            ]
        return found

    def seen_unleased_before(self, job_id: str, law_id: str, ttl_s: float) -> bool:
        """Note that a running law had no lease; True when it was noted already within
        `ttl_s` (two sightings in a row: not a runner between start_law and take_lease)."""
        key = f"{_PREFIX}orphan:{job_id}:{law_id}"
        with self._guard():
            first = self._r.set(key, "1", nx=True, px=int(ttl_s * 1000))
            if not first:
                self._r.delete(key)
        return not first

    def requeue_law(self, job_id: str, law_id: str) -> bool:
        """A running law back to pending (its runner died), unless it became final or
        was taken by a new runner meanwhile; True when it was put back."""
        with self._guard():
            return bool(
                self._r.eval(
                    _REQUEUE_LAW, 2, _laws_key(job_id), _lease_key(job_id, law_id), law_id
                )
            )

    def take_reaper_turn(self, owner: str, ttl_s: float) -> bool:
        """One reaper (bulk.requeue_orphans) per interval across every worker."""
        with self._guard():
            return bool(self._r.set(_PREFIX + "reaper", owner, nx=True, px=int(ttl_s * 1000)))

    # -- dead letters -------------------------------------------------------------------

    def dead_letters(self, *, owner: str | None = None) -> list[DeadLetter]:
        """Oldest first; only those of `owner`'s jobs when given."""
        with self._guard():
            raw = cast(dict[str, str], self._r.hgetall(_PREFIX + "deadletter"))
        letters = [DeadLetter(**json.loads(v)) for v in raw.values()]
        if owner is not None:
            job_ids = sorted({d.job_id for d in letters})
            with self._guard():
                pipe = self._r.pipeline()
                for job_id in job_ids:
                    pipe.hmget(_job_key(job_id), ["owner", "deleted"])
                fields = dict(zip(job_ids, pipe.execute(), strict=True))
            letters = [
                d
                for d in letters
                if (fields[d.job_id][0] or "") == owner and fields[d.job_id][1] != "1"
            ]
        return sorted(letters, key=lambda d: d.at)

    def retry_sources(self, job_id: str) -> list[str]:
        """The sources of a job's failed and cancelled laws, to submit again."""
        sources = {
            e.source for e in self.laws(job_id) if e.status in ("failed", "cancelled") and e.source
        }
        return sorted(sources)

    def _clear_dead_letters_for(self, law_id: str, source: str) -> None:
        with self._guard():
            raw = cast(dict[str, str], self._r.hgetall(_PREFIX + "deadletter"))
            stale = [
                k
                for k, v in raw.items()
                if k.endswith("|" + law_id) or json.loads(v).get("source") == source
            ]
            if stale:
                self._r.hdel(_PREFIX + "deadletter", *stale)

    def all_laws_final(self, job_id: str) -> bool:
        """Every planned law has a final status and no more will be planned."""
        with self._guard():
            fanned = self._r.hget(_job_key(job_id), "fanned_out") == "1"
        if not fanned:
            return False
        job = self.get(job_id)
        settled = job.laws_done + job.laws_failed + job.laws_cancelled
        return settled >= job.laws_total

    def complete(self, job_id: str) -> Job:
        """Set the final state of a job whose laws are all final (idempotent)."""
        job = self.get(job_id)
        if job.state not in ("queued", "running"):
            return job
        final = "succeeded"
        if job.cancel_requested:
            final = "cancelled"
        elif job.laws_failed:
            final = "failed"
        with self._guard():
            self._r.hset(
                _job_key(job_id), mapping={"state": final, "finished_at": repr(time.time())}
            )
        return self.get(job_id)

    @contextmanager
    def _guard(self) -> Iterator[None]:
        try:
            yield
        except redis.RedisError as e:
            raise StoreUnavailable(f"redis: {e}") from e


def _job_key(job_id: str) -> str:
    return f"{_PREFIX}job:{job_id}"


def _lease_key(job_id: str, law_id: str) -> str:
    return f"{_PREFIX}lease:{job_id}:{law_id}"


def _laws_key(job_id: str) -> str:
    return f"{_PREFIX}job:{job_id}:laws"


def _entry_json(entry: LawEntry) -> str:
    return json.dumps(
        {
            "status": entry.status,
            "source": entry.source,
            "sections": entry.sections,
            "version": entry.version,
            "error": entry.error,
        },
        ensure_ascii=False,
    )


def _entry_from(law_id: str, value: str) -> LawEntry:
    data = json.loads(value)
    return LawEntry(
        law_id=law_id,
        status=data.get("status", "pending"),
        source=data.get("source", ""),
        sections=int(data.get("sections") or 0),
        version=data.get("version"),
        error=data.get("error"),
    )


def _float(raw: Mapping[str, str], name: str) -> float | None:
    value = raw.get(name)
    return float(value) if value else None


def _job_from(raw: Mapping[str, str], laws: Mapping[str, str]) -> Job:
    entries = [_entry_from(k, v) for k, v in laws.items()]
    tally = Counter(e.status for e in entries)
    return Job(
        id=raw["id"],
        state=raw.get("state", "queued"),
        sources=tuple(json.loads(raw.get("sources", "[]"))),
        created_at=float(raw.get("created_at", "0")),
        started_at=_float(raw, "started_at"),
        finished_at=_float(raw, "finished_at"),
        laws_total=int(raw.get("laws_total", "0")),
        laws_done=tally["succeeded"] + tally["unchanged"],
        laws_failed=tally["failed"],
        laws_cancelled=tally["cancelled"],
        laws_unchanged=tally["unchanged"],
        sections_total=int(raw.get("sections_total", "0")),
        sections_done=int(raw.get("sections_done", "0")),
        cancel_requested=raw.get("cancel_requested") == "1",
        retry_of=raw.get("retry_of") or None,
        error=raw.get("error") or None,
        errors={e.law_id: e.error for e in entries if e.status == "failed" and e.error},
        owner=raw.get("owner", ""),
        deleted=raw.get("deleted") == "1",
        check=json.loads(raw["check"]) if raw.get("check") else None,
        valid_from=raw.get("valid_from") or None,
        kind=raw.get("kind") or "laws",
        document=json.loads(raw["document"]) if raw.get("document") else None,
    )
