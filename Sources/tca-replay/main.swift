print("tca-replay")
