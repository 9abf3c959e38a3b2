def build(config):
    return config["tensorbord"]
