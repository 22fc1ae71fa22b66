"""Training the networks `vision` reads photos with: the finder (ultralytics), the crop
networks (torch), their export to ONNX and int8, the measurements and the model card.
Needs the train extra (pip install -e '.[train]'); reading a photo never imports this.
"""
