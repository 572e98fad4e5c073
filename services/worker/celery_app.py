"""The Celery app: Redis broker when `settings.broker_url` is set, eager in-process when not.

Delivery is at-least-once (`acks_late`): a worker killed mid-law leaves its message unacked
in Redis, and kombu puts it back on the queue once it is older than the visibility
timeout (checked when a worker starts and every few seconds after), so the law runs again.
That is safe because every task is idempotent (services/core/bulk.py). One prefetched
message per process keeps a killed worker from stranding a queue's worth of laws.
"""

from __future__ import annotations

from celery import Celery

from services.core.settings import Settings, get_settings
from services.worker.metrics import install_worker_metrics

# Queue name shared with the API, which enqueues by task name without importing this.
QUEUE = "lexgraph"


def create_celery(settings: Settings) -> Celery:
    app = Celery(
        "lexgraph",
        broker=settings.broker_url or "memory://",
        backend=settings.result_backend,
        include=["services.worker.tasks"],
    )
    visibility = settings.queue_visibility_timeout_s
    app.conf.update(
        task_always_eager=settings.broker_url is None,
        task_eager_propagates=True,
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        task_ignore_result=settings.result_backend is None,
        task_default_queue=QUEUE,
        broker_connection_retry_on_startup=True,
        worker_hijack_root_logger=False,
        broker_transport_options={
            "visibility_timeout": visibility,
            # Sweep for abandoned messages every few seconds instead of kombu's ~100 s.
            "unacked_restore_interval": max(1, min(10, visibility // 4)),
            "unacked_restore_throttle": 1,
        },
    )
    return app


app = create_celery(get_settings())
install_worker_metrics(get_settings())  # /metrics on the worker's port (0: off)
