X=$(hostname
