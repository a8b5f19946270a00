"""An embedder whose model loads once, in a thread of its own, while a server already answers: importing fastembed
and onnxruntime and opening the model take one to two seconds that a first lexical or graph answer need not wait
for. A search does not wait for the model (it answers from the paths that need no query vector and says which were
not ready); writes and the other tools do."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence

import numpy as np

from trident.embedding.embedder import EmbedderUnavailable
from trident.store.protocols import Embedder

log = logging.getLogger(__name__)


class ModelNotReady(RuntimeError):
    """The embedding model is still loading."""


class BackgroundEmbedder:
    """Loads the model with `load` in a daemon thread, started by `start()` or by the first call that needs it.

    `model_name` is known before the load; `dim` too once the index has told it (`dim`, `assume_dim`), else
    reading it waits for the load. `embed` and `embed_query` wait for the model (writes, find_similar);
    `embed_query_now` raises ModelNotReady until it is loaded (a search's paths). A load that failed, or gave a
    model of another dimension than `dim`, makes them all raise EmbedderUnavailable with the reason.
    """

    def __init__(self, load: Callable[[], Embedder], model_name: str, dim: int | None = None) -> None:
        self._load = load
        self._model_name = model_name
        self._dim = dim
        self._loaded: Embedder | None = None
        self._error: EmbedderUnavailable | None = None
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="trident-model-load", daemon=True)
        self._starting = threading.Lock()
        self._started = False

    def start(self) -> BackgroundEmbedder:
        """Start loading (once; later calls do nothing)."""
        with self._starting:
            if not self._started:
                self._started = True
                self._thread.start()
        return self

    def assume_dim(self, dim: int) -> None:
        """The dimension the index records for this model: `dim` answers it from now on without waiting for the
        load (a model that loads with another dimension is refused)."""
        self._dim = dim

    @property
    def model_name(self) -> str:
        return self._model_name

    @property
    def dim(self) -> int:
        return self._dim if self._dim is not None else self._model(wait=True).dim

    @property
    def ready(self) -> bool:
        """Whether the model is loaded (a failed load is never ready)."""
        return self._done.is_set() and self._loaded is not None

    @property
    def failed(self) -> bool:
        """Whether the load ended without a model (the reason is raised by `embed` and `embed_query`)."""
        return self._done.is_set() and self._loaded is None

    def wait(self, timeout: float | None = None) -> bool:
        """Wait up to `timeout` seconds (None: for as long as it takes) for the load to end; whether it is ready."""
        self._done.wait(timeout)
        return self.ready

    def settle(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for a load under way to end (a server stopping: the load cannot be
        interrupted, and a load left running in native code while the interpreter exits aborts the process);
        whether no load is running now."""
        if self._thread.ident is not None:
            self._thread.join(timeout)
        return not self._thread.is_alive()

    def loaded(self) -> Embedder:
        """The model, once its load has ended (waiting for it).

        Raises:
            EmbedderUnavailable: the load failed.
        """
        return self._model(wait=True)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self._model(wait=True).embed(texts)

    def embed_query(self, text: str) -> np.ndarray:
        return self._model(wait=True).embed_query(text)

    def embed_query_now(self, text: str) -> np.ndarray:
        """The query's vector, or ModelNotReady at once while the model is loading (what a search's paths call:
        a search answers from the paths that need no vector instead of waiting)."""
        return self._model(wait=False).embed_query(text)

    def __repr__(self) -> str:
        state = "ready" if self.ready else "failed" if self._error is not None else "loading"
        return f"BackgroundEmbedder({self._model_name}, {state})"

    def _model(self, *, wait: bool) -> Embedder:
        """
        Raises:
            ModelNotReady: not `wait` and the model is still loading.
            EmbedderUnavailable: the load failed.
        """
        self.start()
        if wait:
            self._done.wait()
        elif not self._done.is_set():
            raise ModelNotReady(
                f"the embedding model {self._model_name} is still loading (once, in the background, after the "
                "server started); paths that need a query vector join the next searches once it is loaded"
            )
        if self._loaded is None:
            assert self._error is not None
            raise self._error
        if self._dim is not None and self._loaded.dim != self._dim:
            raise EmbedderUnavailable(
                f"{self._model_name} loaded with {self._loaded.dim}-d vectors but the index records {self._dim}-d"
            )
        return self._loaded

    def _run(self) -> None:
        try:
            self._loaded = self._load()
        except EmbedderUnavailable as exc:
            log.error("the embedding model could not be loaded: %s", exc)
            self._error = exc
        except Exception as exc:  # the thread's top: whatever ends the load must reach the callers, not vanish
            log.exception("loading the embedding model %s failed", self._model_name)
            self._error = EmbedderUnavailable(f"loading {self._model_name} failed: {type(exc).__name__}: {exc}")
        finally:
            self._done.set()
