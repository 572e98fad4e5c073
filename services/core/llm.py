"""The optional LLM step: an OpenAI-compatible chat endpoint (`settings.llm_keywords_url`)
asked to rewrite a question into statutory keywords and the intents it asks about
(`analysis.Rewrite`). Built by `bootstrap` when the URL is set and passed to retrieval; its
keywords join the search text and its intents join those the question's words say. Any
failure gives nothing, so the search goes on with the deterministic analysis alone."""

from __future__ import annotations

import json
import logging
import re

import httpx

from services.core.analysis import Rewrite, clean_text
from services.core.settings import Settings

log = logging.getLogger(__name__)

_PROMPT = (
    "Extract search keywords for a statute search engine from the user's legal question. "
    "Give low-level keywords (specific terms, rights, duties, penalties) and high-level "
    "keywords (concepts, principles) in the question's language and in statutory wording. "
    "Say which of these the question asks about, if any: penalty (fines, imprisonment, "
    "liability, consequences of a breach), exception (exemptions, when a rule does not "
    "apply), definition (what a term means). "
    'Answer only with JSON: {"keywords": ["...", "..."], "intents": ["..."]} '
    "(at most 12 keywords)."
)
INTENTS = ("penalty", "exception", "definition")


class LLMKeywords:
    """`keywords(question)` -> a `Rewrite`: at most 12 keywords and the intents; an empty
    one on any failure."""

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

    def __call__(self, question: str) -> Rewrite:
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
            return parse_rewrite(str(content))
        except (httpx.HTTPError, KeyError, IndexError, TypeError, ValueError) as exc:
            log.warning("LLM keyword step failed, using deterministic keywords only: %s", exc)
            return Rewrite()

    def close(self) -> None:
        self.http.close()


def parse_rewrite(content: str) -> Rewrite:
    """The keywords and intents of a chat answer: its JSON, or failing that its comma/line
    list of keywords. Intents other than `INTENTS` are dropped."""
    content = content.strip().removeprefix("```json").removeprefix("```").removesuffix("```")
    intents: list[str] = []
    try:
        data = json.loads(content)
        items = data.get("keywords", []) if isinstance(data, dict) else data
        if not isinstance(items, list):
            raise ValueError("keywords is not a list")
        words = [str(item) for item in items]
        said = data.get("intents", []) if isinstance(data, dict) else []
        intents = [str(i).strip().lower() for i in said] if isinstance(said, list) else []
    except json.JSONDecodeError:
        words = re.split(r"[,\n]", content)
    cleaned = [clean_text(w).strip(" -•*\"'") for w in words]
    return Rewrite(
        tuple([w for w in dict.fromkeys(cleaned) if w][:12]),
        tuple(i for i in INTENTS if i in intents),
    )
