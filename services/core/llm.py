"""The optional LLM keyword step: an OpenAI-compatible chat endpoint
(`settings.llm_keywords_url`) asked for statute keywords. Built by `bootstrap` when the URL
is set and passed to retrieval; any failure gives no keywords, so the search goes on with
the deterministic analysis alone."""

from __future__ import annotations

import json
import logging
import re

import httpx

from services.core.analysis import clean_text
from services.core.settings import Settings

log = logging.getLogger(__name__)

_PROMPT = (
    "Extract search keywords for a statute search engine from the user's legal question. "
    "Give low-level keywords (specific terms, rights, duties, penalties) and high-level "
    "keywords (concepts, principles) in the question's language and in statutory wording. "
    'Answer only with JSON: {"keywords": ["...", "..."]} (at most 12).'
)


class LLMKeywords:
    """`keywords(question)` -> at most 12 keywords; [] on any failure."""

    def __init__(self, settings: Settings, *, client: httpx.Client | None = None) -> None:
        url = (settings.llm_keywords_url or "").rstrip("/")
        if not url:
            raise ValueError("llm_keywords_url is not set")
        self.url = url if url.endswith("/chat/completions") else url + "/chat/completions"
        self.model = settings.llm_keywords_model
        self.headers = {}
        if settings.llm_api_key is not None:
            self.headers["Authorization"] = f"Bearer {settings.llm_api_key.get_secret_value()}"
        self.http = client or httpx.Client(timeout=settings.store_timeout_s)

    def __call__(self, question: str) -> list[str]:
        body = {
            "model": self.model,
            "temperature": 0,
            "messages": [
                {"role": "system", "content": _PROMPT},
                {"role": "user", "content": question},
            ],
        }
        try:
            response = self.http.post(self.url, json=body, headers=self.headers)
            response.raise_for_status()
            content = response.json()["choices"][0]["message"]["content"]
            return parse_keywords(str(content))
        except (httpx.HTTPError, KeyError, IndexError, TypeError, ValueError) as exc:
            log.warning("LLM keyword step failed, using deterministic keywords only: %s", exc)
            return []

    def close(self) -> None:
        self.http.close()


def parse_keywords(content: str) -> list[str]:
    """The keywords of a chat answer: its JSON, or failing that its comma/line list."""
    content = content.strip().removeprefix("```json").removeprefix("```").removesuffix("```")
    try:
        data = json.loads(content)
        items = data.get("keywords", []) if isinstance(data, dict) else data
        if not isinstance(items, list):
            raise ValueError("keywords is not a list")
        words = [str(item) for item in items]
    except json.JSONDecodeError:
        words = re.split(r"[,\n]", content)
    cleaned = [clean_text(w).strip(" -•*\"'") for w in words]
    return [w for w in dict.fromkeys(cleaned) if w][:12]
