def task_factory():
    pass
